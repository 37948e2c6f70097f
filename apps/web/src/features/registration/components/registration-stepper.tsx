import { Stepper, type RegistrationScreen } from '../../../shared/ui/stepper.js';

/** 'Paso 1/6 Registro' … 'Paso 5/6 Registro' (the PIN screen draws 'Paso 6/6' with the same stepper). */
export function RegistrationStepper({ screen }: { screen: RegistrationScreen }) {
  return <Stepper phase="registration" screen={screen} />;
}
