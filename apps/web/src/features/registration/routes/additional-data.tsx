import { SESSION_KEYS, cleanTaxId, taxIdError } from '@provee/domain';
import { useEffect, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard, type StepView } from '../../../shared/hooks/use-step-guard.js';
import { useStoredState } from '../../../shared/hooks/use-stored-state.js';
import { applicationState, routeAfterSave } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { getUser } from '../../../shared/lib/users-api.js';
import { Checkbox } from '../../../shared/ui/checkbox.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { amendTaxId, saveTaxId } from '../api/registration.js';
import { useSavedStep } from '../components/saved-step.js';
import { StepForm } from '../components/step-form.js';
import { useStepFields } from '../lib/step-fields.js';
import { handleStepError } from '../../../shared/lib/step-errors.js';

/** Step 2: the tax id, checked by the country's rule (cédula 3-7-1 with check digit, or RFC). */
export function AdditionalDataRoute({ next }: NextProps) {
  usePrefetch(next);
  const view = useStepGuard('additional-data');
  return view ? <AdditionalDataScreen view={view} /> : null;
}

function AdditionalDataScreen({ view }: { view: StepView }) {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const { country } = useConfig();
  const { label, length, generated, lookupUrl } = country.taxId;
  // Kept like the other steps' drafts, so a reload loses nothing; cleared once saved.
  const [draft, updateDraft, clearDraft, stored] = useStoredState(SESSION_KEYS.draftTaxId, {
    value: '',
    confirmed: false,
  });
  const { value, confirmed } = draft;
  const setConfirmed = (checked: boolean) => updateDraft({ confirmed: checked });
  const { errors, setErrors } = useStepFields(draft, updateDraft);
  // A letter in a cédula is named as it is typed (issue 27), not dropped.
  const typedError = value && /[^\d-]/.test(value) ? taxIdError(country, value) : undefined;
  const complete = value.length === length && !typedError;
  // Back on a saved tax id (issue 27): what was saved, unless something was typed since.
  const { data: saved, readOnly, goOn } = useSavedStep(view, phoneNumber, userId);
  const savedTaxId = saved?.tax_payer_id ?? null;
  const nextScreen = `/${phoneNumber}/${userId}/search-address`;
  useEffect(() => {
    if (savedTaxId !== null && (readOnly || !stored.drafted)) stored.adopt({ value: savedTaxId, confirmed: true });
    // Once the saved answer is there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedTaxId]);

  // Mexico: the RFC comes pre-generated from the names and birth date, editable.
  useEffect(() => {
    if (!generated || view.saved) return;
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
    if (readOnly) return goOn(nextScreen);
    const error = taxIdError(country, value);
    if (error) {
      setErrors({ tax_payer_id: error });
      return;
    }
    try {
      if (view.saved) {
        // Unchanged: nothing to correct.
        if (value !== savedTaxId) await amendTaxId(userId, value);
        clearDraft();
        goOn(nextScreen);
        return;
      }
      const { data } = await saveTaxId(userId, value);
      clearDraft();
      // Pushed: the browser's back button comes back to this step (issue 27).
      navigate(routeAfterSave(phoneNumber, data));
    } catch (failure) {
      handleStepError(failure, navigate, setErrors, { user: { phone: phoneNumber, userId }, dropDraft: clearDraft });
    }
  };

  return (
    <StepForm
      title={t('taxId.title', { label })}
      screen="additional-data"
      subtitle={t('taxId.subtitle')}
      view={view}
      readOnly={readOnly}
      onSubmit={onSubmit}
      canContinue={readOnly || (complete && confirmed)}
    >
      <TextField
        label={label}
        value={value}
        onChange={(typed) => {
          const next = cleanTaxId(country, typed);
          // A changed tax id must be confirmed again.
          updateDraft(next !== value ? { value: next, confirmed: false } : { value: next });
          setErrors({});
        }}
        // Left empty: SPEC §5's message, not just a Continuar that stays off.
        onBlur={() => !value && setErrors({ tax_payer_id: taxIdError(country, '')! })}
        error={errors.tax_payer_id ?? typedError}
        inputMode={country.taxId.format ? 'numeric' : 'text'}
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
    </StepForm>
  );
}
