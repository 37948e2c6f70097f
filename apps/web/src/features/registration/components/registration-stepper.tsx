import { Stepper } from '../../../shared/ui/stepper.js';

/**
 * 'Paso 1/3 Registro' over five bars: about you 1, tax id 2, address (search and form) 3,
 * business 4, PIN 5 (the PIN screen draws the same stepper).
 */
export function RegistrationStepper({ filled }: { filled: 1 | 2 | 3 | 4 | 5 }) {
  return <Stepper phase="registration" filled={filled} />;
}
