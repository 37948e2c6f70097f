import type { FormEvent, ReactNode } from 'react';
import type { StepView } from '../../../shared/lib/application-state.js';
import { t } from '../../../shared/lib/copy.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import type { RegistrationScreen } from '../../../shared/ui/stepper.js';
import { RegistrationStepper } from './registration-stepper.js';
import { SavedNote } from './saved-step.js';

interface StepFormProps {
  title: string;
  screen: RegistrationScreen;
  subtitle?: string;
  view: StepView;
  /** The fields show what was saved and take no typing. */
  readOnly: boolean;
  onSubmit: (event: FormEvent) => unknown;
  /** Continuar stays off until the step is complete (when the screen says so before checking). */
  canContinue?: boolean;
  /** What stands between the fields and Continuar. */
  footer?: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/** A registration step's screen: the stepper, what the step asks, its fields and Continuar. */
export function StepForm(props: StepFormProps) {
  const { title, screen, subtitle, view, readOnly, onSubmit, canContinue = true, footer, children } = props;
  return (
    <Page title={title} heading={title}>
      <RegistrationStepper screen={screen} />
      {subtitle !== undefined && <p className="page-subtitle">{subtitle}</p>}
      <SavedNote view={view} />
      <form className="stack" onSubmit={onSubmit} noValidate>
        <fieldset className="step-fields" disabled={readOnly}>
          {children}
        </fieldset>
        {footer}
        <Button type="submit" disabled={!canContinue}>
          {t('common.continue')}
        </Button>
      </form>
    </Page>
  );
}
