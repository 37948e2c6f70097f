import { t, type CopyKey } from '../lib/copy.js';

/**
 * The one step indicator of the journey: 'Paso 1/3 Registro' (registration screens and the PIN),
 * then 'Paso 2/3 Evaluación' (advisor screens). Always the same label shape and the same five
 * bars, so nothing jumps or changes scale from one screen to the next.
 */
export const STEPPER_PHASES = {
  registration: { step: 1, title: 'registration.stepper' },
  evaluation: { step: 2, title: 'advisor.stepper' },
} as const satisfies Record<string, { step: number; title: CopyKey }>;
export const STEPPER_TOTAL = 3;
export const STEPPER_BARS = 5;

interface StepperProps {
  phase: keyof typeof STEPPER_PHASES;
  /** Bars done within the phase (1…5). */
  filled: number;
}

export function Stepper({ phase, filled }: StepperProps) {
  const { step, title: titleKey } = STEPPER_PHASES[phase];
  const title = t(titleKey);
  return (
    <div className="stepper">
      <p className="stepper-label">
        <span className="stepper-step">{t('stepper.step', { step, total: STEPPER_TOTAL })}</span> {title}
      </p>
      <div
        className="stepper-bars"
        role="progressbar"
        aria-label={title}
        aria-valuemin={0}
        aria-valuemax={STEPPER_BARS}
        aria-valuenow={filled}
      >
        {Array.from({ length: STEPPER_BARS }, (_, i) => (
          <span key={i} className={i < filled ? 'stepper-bar is-done' : 'stepper-bar'} />
        ))}
      </div>
    </div>
  );
}
