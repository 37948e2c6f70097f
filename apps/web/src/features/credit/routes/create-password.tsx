import { PASSWORD_LENGTH, passwordErrors } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { routeAfterSave } from '../../../shared/lib/application-state.js';
import { t } from '../../../shared/lib/copy.js';
import { handleStepError } from '../../../shared/lib/step-errors.js';
import { routeAfterConflict } from '../../../shared/lib/users-api.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { savePassword } from '../api/credit.js';

function PasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  autoComplete: string;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-field">
      <TextField
        label={props.label}
        value={props.value}
        onChange={(value) => props.onChange(value.replace(/\D/g, '').slice(0, PASSWORD_LENGTH))}
        error={props.error}
        type={visible ? 'text' : 'password'}
        inputMode="numeric"
        autoComplete={props.autoComplete}
        maxLength={PASSWORD_LENGTH}
      />
      <button
        type="button"
        className="toggle-visibility"
        aria-pressed={visible}
        onClick={() => setVisible((shown) => !shown)}
      >
        {visible ? t('password.hide') : t('password.show')}
      </button>
    </div>
  );
}

/** Six digits and their confirmation (SPEC §2.3 item 9); the server refuses the obvious ones. */
export function CreatePasswordRoute({ next }: NextProps) {
  usePrefetch(next);
  return useStepGuard('create-password') ? <CreatePasswordScreen /> : null;
}

function CreatePasswordScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Typing in a field keeps the value and clears that field's error. */
  const typing = (set: (value: string) => void, field: string) => (value: string) => {
    set(value);
    setErrors(({ [field]: _changed, ...rest }) => rest);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = passwordErrors(password, confirmation, { phone: phoneNumber });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const { data } = await savePassword(userId, password, confirmation);
      routeAfterSave(phoneNumber, data);
      // SPEC §2.3 item 9: a new password goes on to the advisor contact.
      navigate(`/${phoneNumber}/${userId}/advisor-contact`, { replace: true });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409)
        await routeAfterConflict(phoneNumber, userId, failure).then(
          (target) => navigate(target, { replace: true }),
          uiState.showError,
        );
      else handleStepError(failure, navigate, setErrors);
    }
  };

  return (
    <Page title={t('password.title')} heading={t('password.title')}>
      <p className="page-subtitle">{t('password.subtitle')}</p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <PasswordField
          label={t('password.label')}
          value={password}
          onChange={typing(setPassword, 'password')}
          error={errors.password}
          autoComplete="new-password"
        />
        <PasswordField
          label={t('password.confirm')}
          value={confirmation}
          onChange={typing(setConfirmation, 'password_confirmation')}
          error={errors.password_confirmation}
          autoComplete="new-password"
        />
        <Button type="submit">{t('common.continue')}</Button>
      </form>
    </Page>
  );
}
