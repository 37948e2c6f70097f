import { t, type CopyKey } from '../lib/copy.js';

/**
 * The registration's six screens in SPEC §2.3's order (the PIN is 'step 6 of 6'): each says where
 * the person is, 'Paso 4/6 Registro' over six bars (issue 27).
 */
export const REGISTRATION_SCREENS = [
  'about-you',
  'additional-data',
  'search-address',
  'about-living',
  'more-about',
  'send-nip',
] as const;
export type RegistrationScreen = (typeof REGISTRATION_SCREENS)[number];

/** After the registration, the journey's second phase: 'Paso 2/3 Evaluación' over five bars. */
export const EVALUATION = { step: 2, total: 3, bars: 5 } as const;

type StepperProps = { phase: 'registration'; screen: RegistrationScreen } | { phase: 'evaluation'; filled: number };

/** The one step indicator of the journey: the same label shape ('Paso x/y Fase') and bars on every screen. */
export function Stepper(props: StepperProps) {
  const shown =
    props.phase === 'registration'
      ? {
          step: REGISTRATION_SCREENS.indexOf(props.screen) + 1,
          total: REGISTRATION_SCREENS.length,
          bars: REGISTRATION_SCREENS.length,
          filled: REGISTRATION_SCREENS.indexOf(props.screen) + 1,
          title: 'registration.stepper' as CopyKey,
        }
      : { ...EVALUATION, filled: props.filled, title: 'advisor.stepper' as CopyKey };
  const title = t(shown.title);
  return (
    <div className="stepper">
      <p className="stepper-label">
        <span className="stepper-step">{t('stepper.step', { step: shown.step, total: shown.total })}</span> {title}
      </p>
      <div
        className="stepper-bars"
        role="progressbar"
        aria-label={title}
        aria-valuemin={0}
        aria-valuemax={shown.bars}
        aria-valuenow={shown.filled}
      >
        {Array.from({ length: shown.bars }, (_, i) => (
          <span key={i} className={i < shown.filled ? 'stepper-bar is-done' : 'stepper-bar'} />
        ))}
      </div>
    </div>
  );
}
