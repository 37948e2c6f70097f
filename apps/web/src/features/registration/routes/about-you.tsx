import {
  CIVIL_STATUSES,
  MONTHS,
  NAME_MAX_LENGTH,
  SESSION_KEYS,
  SURNAME_MAX_LENGTH,
  YEAR_CHOICES,
  aboutYouErrors,
  birthYearOptions,
  canAmend,
  dayOptions,
  isoDate,
  newestBirthDate,
  todayIn,
  type AboutYouValues,
  type ApplicationState as EngineState,
} from '@provee/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStoredState } from '../../../shared/hooks/use-stored-state.js';
import {
  applicationState,
  routeAfterSave,
  type ApplicationState,
  type StepView,
} from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { reproveTarget } from '../../../shared/lib/proven-phone.js';
import { hasSession, sessionUserId } from '../../../shared/lib/session-owner.js';
import { session } from '../../../shared/lib/session.js';
import { borrowSession, lendSessionToOtherTabs } from '../../../shared/lib/session-share.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { getUser } from '../../../shared/lib/users-api.js';
import { Select } from '../../../shared/ui/select.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { amendPersonalData, createUser, type SavedRegistration } from '../api/registration.js';
import { useSavedStep } from '../components/saved-step.js';
import { StepForm } from '../components/step-form.js';
import { useStepFields } from '../lib/step-fields.js';
import { handleStepError } from '../../../shared/lib/step-errors.js';

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

/** The three name fields, in the order of an official document. */
const NAME_FIELDS = [
  { field: 'name', label: 'aboutYou.name', maxLength: NAME_MAX_LENGTH, autoComplete: 'given-name' },
  { field: 'lastname', label: 'aboutYou.lastname', maxLength: SURNAME_MAX_LENGTH, autoComplete: 'family-name' },
  { field: 'maternal_lastname', label: 'aboutYou.maternalLastname', maxLength: SURNAME_MAX_LENGTH },
] as const;

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

/** The form's values of saved personal data. */
function valuesOf(personal: NonNullable<SavedRegistration['personal']>): AboutYouValues {
  const [year = '', month = '', day = ''] = personal.dob.split('-');
  return {
    name: personal.name,
    lastname: personal.lastname,
    maternal_lastname: personal.maternal_lastname,
    day: String(Number(day)),
    month: String(Number(month)),
    year,
    length_of_residency_in_years: String(personal.length_of_residency_in_years),
    marital_status: personal.marital_status,
  };
}

/**
 * What this tab knows of the number's application: one (going back, a second tab, a link), none
 * (a new number), or not yet (a reload). Not yet: the session says, since registering hands out
 * the user's own token (no lookup, so a new number's reload asks nothing). A tab without a session
 * borrows one from an open tab of the number or proves it again (issue 27).
 */
function useKnownApplication(phone: string): ApplicationState | 'new' | null {
  const navigate = useNavigate();
  const [found, setKnown] = useState<ApplicationState | 'new' | null>(
    () => applicationState.forPhone(phone) ?? (applicationState.isNew(phone) ? 'new' : null),
  );
  // Read again on every render: this screen can outlive its own save (back pressed while the next
  // screen was still loading keeps it mounted), and a number registered since is never 'new' again.
  const known = applicationState.forPhone(phone) ?? (found === 'new' && sessionUserId() ? null : found);
  useEffect(lendSessionToOtherTabs, []);
  useEffect(() => {
    if (known) return;
    let live = true;
    (async () => {
      if (!hasSession(phone) && !(await borrowSession({ phone }))) {
        if (live) navigate(reproveTarget(phone), { replace: true });
        return;
      }
      const userId = sessionUserId();
      if (userId) await getUser(userId);
      else applicationState.markNew(phone);
      if (live) setKnown((userId && applicationState.get(userId)) || 'new');
    })().catch((error: unknown) => live && uiState.showError(error));
    return () => {
      live = false;
    };
  }, [known, phone, navigate]);
  return known;
}

/** Step 1 'Sobre ti' (SPEC §2.3 item 1): kept under the `values` key so a reload restores it. */
export function AboutYouRoute({ next }: NextProps) {
  usePrefetch(next);
  const { phoneNumber = '' } = useParams();
  const known = useKnownApplication(phoneNumber);
  if (known === null || known === 'new') return <AboutYouScreen view={{ saved: false }} userId="" />;
  const engine = { step: known.next_step, status: known.status } as EngineState;
  const view: StepView = { saved: true, editable: canAmend('personal', engine) };
  // Its own instance: the saved form does not share the new one's state.
  return <AboutYouScreen key="saved" view={view} userId={known.user_id} />;
}

function AboutYouScreen({ view, userId }: { view: StepView; userId: string }) {
  const { phoneNumber = '' } = useParams();
  const navigate = useNavigate();
  const [values, update, clearValues, stored] = useStoredState(SESSION_KEYS.values, EMPTY);
  // Back on saved personal data (issue 27): what was saved, unless something was typed since.
  const { data: saved, readOnly, goOn } = useSavedStep(view, phoneNumber, userId);
  const personal = saved?.personal;
  useEffect(() => {
    if (personal && (readOnly || !stored.drafted)) stored.adopt(valuesOf(personal));
    // When the saved answer is there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [personal]);
  const { errors, setErrors, clearError, textField, selectField } = useStepFields(values, update);
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
    clearError(field);
  };
  const dayChoices = Array.from({ length: days }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
  const dateParts = [
    { part: 'day', label: t('aboutYou.day'), options: dayChoices },
    { part: 'month', label: t('aboutYou.month'), options: monthOptions },
    { part: 'year', label: t('aboutYou.year'), options: yearOptions },
  ] as const;

  const nextScreen = `/${phoneNumber}/${userId}/additional-data`;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly) return goOn(nextScreen);
    const found = aboutYouErrors(values, today);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const personalData = {
      name: values.name,
      lastname: values.lastname,
      maternal_lastname: values.maternal_lastname,
      // aboutYouErrors checked the date; '' would get the server's field message.
      dob: isoDate(Number(values.year), Number(values.month), Number(values.day)) ?? '',
      length_of_residency_in_years: Number(values.length_of_residency_in_years),
      marital_status: values.marital_status,
    };
    if (view.saved) {
      try {
        // Unchanged: nothing to correct.
        if (!personal || JSON.stringify(valuesOf(personal)) !== JSON.stringify({ ...EMPTY, ...values })) {
          // The answer carries the RFC the corrected names and date give (Mexico).
          routeAfterSave(phoneNumber, (await amendPersonalData(userId, personalData)).data);
        }
        clearValues();
        goOn(nextScreen);
      } catch (error) {
        handleStepError(error, navigate, setErrors, {
          fieldAlias: { dob: 'day' },
          user: { phone: phoneNumber, userId },
          dropDraft: clearValues,
        });
      }
      return;
    }
    try {
      const { data } = await createUser({
        account_type_id: 'SK',
        ...personalData,
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
      // Pushed: the browser's back button comes back to this step (issue 27).
      navigate(target);
    } catch (error) {
      // A 409: this phone already has an application; its `current` says where it stands.
      handleStepError(error, navigate, setErrors, {
        fieldAlias: { dob: 'day' },
        user: { phone: phoneNumber },
        dropDraft: clearValues,
      });
    }
  };

  return (
    <StepForm
      title={t('aboutYou.title')}
      screen="about-you"
      subtitle={t('aboutYou.subtitle')}
      view={view}
      readOnly={readOnly}
      onSubmit={onSubmit}
    >
      {NAME_FIELDS.map(({ field, label, ...limits }) => (
        <TextField key={field} label={t(label)} {...textField(field)} {...limits} autoCapitalize="words" tidyOnBlur />
      ))}
      <fieldset className="date-fields">
        <legend>{t('aboutYou.birthDate')}</legend>
        {dateParts.map(({ part, label, options }) => (
          <Select
            key={part}
            label={label}
            placeholder={t('common.selectShort')}
            options={options}
            value={values[part]}
            onChange={(e) => changeDate(part, e.currentTarget.value)}
            error={errors[part]}
          />
        ))}
      </fieldset>
      <Select
        label={t('aboutYou.residency')}
        placeholder={t('common.select')}
        options={YEAR_CHOICES}
        {...selectField('length_of_residency_in_years')}
      />
      <Select
        label={t('aboutYou.maritalStatus')}
        placeholder={t('common.select')}
        options={CIVIL_STATUSES}
        {...selectField('marital_status')}
      />
    </StepForm>
  );
}
