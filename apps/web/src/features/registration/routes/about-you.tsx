import {
  CIVIL_STATUSES,
  MONTHS,
  NAME_MAX_LENGTH,
  SESSION_KEYS,
  SURNAME_MAX_LENGTH,
  YEAR_CHOICES,
  aboutYouErrors,
  birthYearOptions,
  dayOptions,
  isoDate,
  newestBirthDate,
  todayIn,
  type AboutYouValues,
} from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStoredState } from '../../../shared/hooks/use-stored-state.js';
import { routeAfterSave } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { session } from '../../../shared/lib/session.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { Select } from '../../../shared/ui/select.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { createUser } from '../api/registration.js';
import { RegistrationStepper } from '../components/registration-stepper.js';
import { handleStepError, type FieldErrors } from '../../../shared/lib/step-errors.js';

const EMPTY: AboutYouValues = {
  name: '',
  lastname: '',
  maternal_lastname: '',
  day: '',
  month: '',
  year: '',
  length_of_residency_in_years: '',
  marital_status: '',
};

const monthChoices = MONTHS.map((label, index) => ({ value: String(index + 1), label }));

/**
 * The date selects offer no date under 18 on the day (country time zone): the newest year stops at
 * this month, and this month at today. Returns the choices and what a changed date keeps.
 */
function birthDateChoices(today: string, year: string, month: string) {
  const newest = newestBirthDate(today);
  const yearOptions = birthYearOptions(newest.year + 18).map((choice) => ({
    value: String(choice),
    label: String(choice),
  }));
  const inNewestYear = Number(year) === newest.year;
  const monthOptions = inNewestYear ? monthChoices.slice(0, newest.month) : monthChoices;
  const days =
    inNewestYear && Number(month) === newest.month
      ? Math.min(newest.day, dayOptions(newest.month))
      : dayOptions(Number(month) || undefined);
  return { yearOptions, monthOptions, days };
}

/** Step 1 'Sobre ti' (SPEC §2.3 item 1): kept under the `values` key so a reload restores it. */
export function AboutYouRoute({ next }: NextProps) {
  usePrefetch(next);
  const { phoneNumber = '' } = useParams();
  const navigate = useNavigate();
  const [values, update, clearValues] = useStoredState(SESSION_KEYS.values, EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { country } = useConfig();
  const [today] = useState(() => todayIn(country.timeZone, new Date()));
  const { yearOptions, monthOptions, days } = birthDateChoices(today, values.year, values.month);
  /** A month or day the new choice does not offer is cleared rather than silently changed. */
  const changeDate = (field: 'day' | 'month' | 'year', value: string) => {
    const next = { ...values, [field]: value };
    const choices = birthDateChoices(today, next.year, next.month);
    if (next.month && Number(next.month) > choices.monthOptions.length) next.month = '';
    if (next.day && Number(next.day) > birthDateChoices(today, next.year, next.month).days) next.day = '';
    update({ day: next.day, month: next.month, year: next.year });
    setErrors(({ [field]: _changed, ...rest }) => rest);
  };
  const dayChoices = Array.from({ length: days }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

  const change = (field: keyof AboutYouValues) => (value: string) => {
    update({ [field]: value });
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = aboutYouErrors(values, today);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const { data } = await createUser({
        account_type_id: 'SK',
        name: values.name,
        lastname: values.lastname,
        maternal_lastname: values.maternal_lastname,
        // aboutYouErrors checked the date; '' would get the server's field message.
        dob: isoDate(Number(values.year), Number(values.month), Number(values.day)) ?? '',
        length_of_residency_in_years: Number(values.length_of_residency_in_years),
        marital_status: values.marital_status,
        phone_number: phoneNumber,
        utm_source: session.get(SESSION_KEYS.utmSource),
        utm_name: session.get(SESSION_KEYS.utmCampaign),
        utm_medium: session.get(SESSION_KEYS.utmMedium),
        sales_identifier: '',
        anonymous_id: session.get(SESSION_KEYS.anonymousId),
        ...(session.get(SESSION_KEYS.version) && Number.isInteger(Number(session.get(SESSION_KEYS.version)))
          ? { kiban_flow_version_id: Number(session.get(SESSION_KEYS.version)) }
          : {}),
      });
      // The user's own token replaces the phone's.
      session.set(SESSION_KEYS.clientToken, `Bearer ${data.authentication.access_token}`);
      const target = routeAfterSave(phoneNumber, data);
      // Saved on the server now: personal data need not stay in the browser.
      clearValues();
      navigate(target, { replace: true });
    } catch (error) {
      // A 409: this phone already has an application; its `current` says where it stands.
      handleStepError(error, navigate, setErrors, { fieldAlias: { dob: 'day' }, user: { phone: phoneNumber } });
    }
  };

  return (
    <Page title={t('aboutYou.title')} heading={t('aboutYou.title')}>
      <RegistrationStepper filled={1} />
      <p className="page-subtitle">{t('aboutYou.subtitle')}</p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('aboutYou.name')}
          value={values.name}
          onChange={change('name')}
          error={errors.name}
          maxLength={NAME_MAX_LENGTH}
          autoComplete="given-name"
          autoCapitalize="words"
          tidyOnBlur
        />
        <TextField
          label={t('aboutYou.lastname')}
          value={values.lastname}
          onChange={change('lastname')}
          error={errors.lastname}
          maxLength={SURNAME_MAX_LENGTH}
          autoComplete="family-name"
          autoCapitalize="words"
          tidyOnBlur
        />
        <TextField
          label={t('aboutYou.maternalLastname')}
          value={values.maternal_lastname}
          onChange={change('maternal_lastname')}
          error={errors.maternal_lastname}
          maxLength={SURNAME_MAX_LENGTH}
          autoCapitalize="words"
          tidyOnBlur
        />
        <fieldset className="date-fields">
          <legend>{t('aboutYou.birthDate')}</legend>
          <Select
            label={t('aboutYou.day')}
            placeholder={t('common.selectShort')}
            options={dayChoices}
            value={values.day}
            onChange={(e) => changeDate('day', e.currentTarget.value)}
            error={errors.day}
          />
          <Select
            label={t('aboutYou.month')}
            placeholder={t('common.selectShort')}
            options={monthOptions}
            value={values.month}
            onChange={(e) => changeDate('month', e.currentTarget.value)}
            error={errors.month}
          />
          <Select
            label={t('aboutYou.year')}
            placeholder={t('common.selectShort')}
            options={yearOptions}
            value={values.year}
            onChange={(e) => changeDate('year', e.currentTarget.value)}
            error={errors.year}
          />
        </fieldset>
        <Select
          label={t('aboutYou.residency')}
          placeholder={t('common.select')}
          options={YEAR_CHOICES}
          value={values.length_of_residency_in_years}
          onChange={(e) => change('length_of_residency_in_years')(e.currentTarget.value)}
          error={errors.length_of_residency_in_years}
        />
        <Select
          label={t('aboutYou.maritalStatus')}
          placeholder={t('common.select')}
          options={CIVIL_STATUSES}
          value={values.marital_status}
          onChange={(e) => change('marital_status')(e.currentTarget.value)}
          error={errors.marital_status}
        />
        <Button type="submit">{t('common.continue')}</Button>
      </form>
    </Page>
  );
}
