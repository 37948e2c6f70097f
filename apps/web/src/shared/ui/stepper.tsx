import { t } from '../lib/copy.js';

interface StepperProps {
  step: number;
  total: number;
  title: string;
  /** How many bars to draw, and how many of them are done; by default one per step. */
  bars?: number;
  filled?: number;
}

/** 'Paso x/y' with a title and progress bars (e.g. 'Paso 1/3 Registro' over 5 bars). */
export function Stepper({ step, total, title, bars = total, filled = step }: StepperProps) {
  return (
    <div className="stepper">
      <p className="stepper-label">
        <span className="stepper-step">{t('stepper.step', { step, total })}</span> {title}
      </p>
      <div className="stepper-bars" role="progressbar" aria-label={title} aria-valuemin={0} aria-valuemax={bars} aria-valuenow={filled}>
        {Array.from({ length: bars }, (_, i) => (
          <span key={i} className={i < filled ? 'stepper-bar is-done' : 'stepper-bar'} />
        ))}
      </div>
    </div>
  );
}
