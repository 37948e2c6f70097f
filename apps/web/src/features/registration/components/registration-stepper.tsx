import { t } from '../../../shared/lib/copy.js';
import { Stepper } from '../../../shared/ui/stepper.js';

/** 'Paso 1/3 Registro' over five bars, one more filled at each screen of the registration. */
export function RegistrationStepper({ filled }: { filled: number }) {
  return <Stepper step={1} total={3} title={t('registration.stepper')} bars={5} filled={filled} />;
}
