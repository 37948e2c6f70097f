import { cleanRfc, formatCedula, taxIdError } from '@provee/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { getUser, routeForUser } from '../../../shared/lib/users-api.js';
import { Button } from '../../../shared/ui/button.js';
import { Checkbox } from '../../../shared/ui/checkbox.js';
import { Page } from '../../../shared/ui/page.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { saveTaxId } from '../api/registration.js';
import { RegistrationStepper } from '../components/registration-stepper.js';
import { handleStepError, type FieldErrors } from '../../../shared/lib/step-errors.js';

/** Step 2: the tax id, checked by the country's rule (cédula 3-7-1 with check digit, or RFC). */
export function AdditionalDataRoute() {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const { country } = useConfig();
  const { label, length, format, generated, lookupUrl } = country.taxId;
  const clean = (value: string) => (format ? formatCedula(value) : cleanRfc(value));
  const [value, setValue] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const complete = value.length === length;

  // Mexico: the RFC comes pre-generated from the names and birth date, editable.
  useEffect(() => {
    if (!generated) return;
    let current = true;
    getUser(userId)
      .then(({ data }) => current && data.tax_id_suggestion && setValue((typed) => typed || data.tax_id_suggestion!))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [generated, userId]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const error = taxIdError(country, value);
    if (error) {
      setErrors({ tax_payer_id: error });
      return;
    }
    try {
      await saveTaxId(userId, value);
      navigate(await routeForUser(phoneNumber, userId), { replace: true });
    } catch (failure) {
      handleStepError(failure, navigate, setErrors);
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
            if (next !== value) setConfirmed(false);
            setValue(next);
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
