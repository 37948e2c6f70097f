import { SESSION_KEYS, cleanRfc, formatCedula, taxIdError } from '@provee/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { useStoredState } from '../../../shared/hooks/use-stored-state.js';
import { applicationState, routeAfterSave } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { getUser } from '../../../shared/lib/users-api.js';
import { Button } from '../../../shared/ui/button.js';
import { Checkbox } from '../../../shared/ui/checkbox.js';
import { Page } from '../../../shared/ui/page.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { saveTaxId } from '../api/registration.js';
import { RegistrationStepper } from '../components/registration-stepper.js';
import { handleStepError, type FieldErrors } from '../../../shared/lib/step-errors.js';

/** Step 2: the tax id, checked by the country's rule (cédula 3-7-1 with check digit, or RFC). */
export function AdditionalDataRoute({ next }: NextProps) {
  usePrefetch(next);
  return useStepGuard('additional-data') ? <AdditionalDataScreen /> : null;
}

function AdditionalDataScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const { country } = useConfig();
  const { label, length, format, generated, lookupUrl } = country.taxId;
  const clean = (value: string) => (format ? formatCedula(value) : cleanRfc(value));
  // Kept like the other steps' drafts, so a reload loses nothing; cleared once saved.
  const [draft, updateDraft, clearDraft] = useStoredState(SESSION_KEYS.draftTaxId, { value: '', confirmed: false });
  const { value, confirmed } = draft;
  const setConfirmed = (checked: boolean) => updateDraft({ confirmed: checked });
  const [errors, setErrors] = useState<FieldErrors>({});
  const complete = value.length === length;

  // Mexico: the RFC comes pre-generated from the names and birth date, editable.
  useEffect(() => {
    if (!generated) return;
    let current = true;
    // The registration's answer carried it; a reload or a link asks the server.
    const known = applicationState.get(userId)?.tax_id_suggestion;
    (known !== undefined ? Promise.resolve(known) : getUser(userId).then(({ data }) => data.tax_id_suggestion ?? null))
      // A draft (typed, or restored after a reload) wins over the suggestion.
      .then((suggestion) => current && suggestion && !value && updateDraft({ value: suggestion }))
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // Once per user: the suggestion only fills an empty field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generated, userId]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const error = taxIdError(country, value);
    if (error) {
      setErrors({ tax_payer_id: error });
      return;
    }
    try {
      const { data } = await saveTaxId(userId, value);
      clearDraft();
      navigate(routeAfterSave(phoneNumber, data), { replace: true });
    } catch (failure) {
      handleStepError(failure, navigate, setErrors, { user: { phone: phoneNumber, userId } });
    }
  };

  return (
    <Page title={t('taxId.title', { label })} heading={t('taxId.title', { label })}>
      <RegistrationStepper filled={2} />
      <p className="page-subtitle">{t('taxId.subtitle')}</p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <TextField
          label={label}
          value={value}
          onChange={(typed) => {
            const next = clean(typed);
            // A changed tax id must be confirmed again.
            updateDraft(next !== value ? { value: next, confirmed: false } : { value: next });
            setErrors({});
          }}
          error={errors.tax_payer_id}
          inputMode={format ? 'numeric' : 'text'}
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={length}
          hint={t('taxId.length', { count: value.length, length })}
        />
        <a href={lookupUrl} target="_blank" rel="noopener noreferrer" className="inline-link">
          {t('taxId.lookup', { label })}
        </a>
        <Checkbox checked={confirmed} disabled={!complete} onChange={setConfirmed}>
          {t('taxId.confirm', { label })}
        </Checkbox>
        <Button type="submit" disabled={!complete || !confirmed}>
          {t('common.continue')}
        </Button>
      </form>
    </Page>
  );
}
