import {
  PHONE_INVALID_MESSAGE,
  PHONE_MAX_LENGTH,
  PHONE_TYPING_MAX_LENGTH,
  SESSION_KEYS,
  isValidNationalNumber,
  normalizePhone,
  phoneTypingChars,
} from '@provee/domain';
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useHydrated } from '../../../shared/hooks/use-hydrated.js';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { useConfig } from '../../../shared/lib/config.js';
import { loadScreenCopy, t } from '../../../shared/lib/copy.js';
import { provenPhone } from '../../../shared/lib/proven-phone.js';
import { session } from '../../../shared/lib/session.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { LoadingOverlay } from '../../../shared/ui/spinner.js';
import { Page } from '../../../shared/ui/page.js';
import type { ReverseOtpSession } from '../api/phone-proof.js';
import { storeEntryParams, usesReverseOtp } from '../lib/entry-params.js';

// Only the landing form is in the first bundle; the proof screens load when needed (warmed by the form).
const loadReverseOtp = () => Promise.all([import('../components/reverse-otp.js'), loadScreenCopy()]);
const ReverseOtp = lazy(() => loadReverseOtp().then(([m]) => ({ default: m.ReverseOtp })));
// So is what a number this tab already proved needs (../lib/returning.ts).
const GoWhereItStands = lazy(() =>
  import('../components/go-where-it-stands.js').then((m) => ({ default: m.GoWhereItStands })),
);
const returning = () => import('../lib/returning.js');
// So is the proof's start (the phone-proof calls): warmed with the proof screen, below.
const proof = () => import('../lib/start-proof.js');

/** `next` (from the router) warms the code screen, where the SMS flow goes after Continuar. */
export function HomeRoute({ next }: NextProps) {
  const { phoneNumber } = useParams();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const sessionUuid = searchParams.get('sessionUuid');
  // Checked on arrival only: the proof made on this screen sets it too, and navigates on its own.
  const [proven] = useState(() => provenPhone());

  useEffect(() => storeEntryParams(searchParams), [searchParams]);

  if (phoneNumber && sessionUuid && /^\d{10}$/.test(phoneNumber)) {
    // Back or reload onto the proof of a number this tab already proved: no new proof.
    if (proven === phoneNumber) return <GoWhereItStands phone={phoneNumber} />;
    const { session: initial, resume } =
      (location.state as { session?: ReverseOtpSession; resume?: boolean } | null) ?? {};
    return (
      <Suspense fallback={<LoadingOverlay visible />}>
        <ReverseOtp phone={phoneNumber} sessionId={sessionUuid} initial={initial} resume={resume === true} />
      </Suspense>
    );
  }
  return <PhoneForm initialPhone={phoneNumber} next={next} />;
}

function PhoneForm({ initialPhone, next }: { initialPhone: string | undefined } & NextProps) {
  const config = useConfig();
  const navigate = useNavigate();
  const { code: country } = config.country;
  // The stored number and the proof live in sessionStorage: shown once hydrated, since the server's
  // prerender of this screen (app/prerender.tsx) cannot know them.
  const hydrated = useHydrated();
  // What the field shows: as typed (+1, spaces, brackets…) until the 10 national digits are there.
  const [edited, setTyped] = useState<string | null>(null);
  const typed =
    edited ?? normalizePhone(country, initialPhone ?? (hydrated ? session.get(SESSION_KEYS.phoneNumber) : null) ?? '');
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);
  const phone = normalizePhone(country, typed);
  const valid = isValidNationalNumber(country, phone);
  const proven = hydrated ? provenPhone() : null;
  const error = serverError || (phone.length === PHONE_MAX_LENGTH && !valid ? PHONE_INVALID_MESSAGE : '');
  useEffect(() => {
    if (proven) returning().catch(() => undefined);
  }, [proven]);
  // Once idle, or at the first focus or input: the proof screen Continuar leads to (decided then:
  // the entry parameters are stored after this screen's first effects).
  const warm = useMemo(
    () => () => {
      proof().catch(() => undefined);
      if (!usesReverseOtp()) next?.();
      else loadReverseOtp().catch(() => undefined);
    },
    [next],
  );
  usePrefetch(warm);

  const onType = (value: string) => {
    const raw = phoneTypingChars(value);
    const digits = normalizePhone(country, raw);
    setTyped(digits.length === PHONE_MAX_LENGTH ? digits : raw);
    setServerError('');
  };
  // The landing is on screen before its JS: a number typed meanwhile is in the field, which React
  // adopts as it is when it hydrates. Kept as typed, before the first render after hydration would
  // put the (empty) state back into the field.
  const field = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const typedEarly = field.current?.value;
    if (typedEarly) onType(typedEarly);
    // On mount only: later input arrives through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    // The number this tab already proved (back from a step): no new code, where it stands.
    if (phone === proven) {
      try {
        const { routeForPhone } = await returning();
        navigate(await routeForPhone(phone), { replace: true });
        return;
      } catch (failure) {
        if (!(failure instanceof ApiError && failure.status === 401)) {
          uiState.showError(failure);
          setBusy(false);
          return;
        }
        // The token is no longer accepted: prove the number again.
      }
    }
    try {
      const { startProof } = await proof();
      await startProof(phone, config.ipLookupUrl, navigate);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        // The server refused the number: its message under the field, no modal.
        setServerError(
          error.issues.find((issue) => /phone_number$/.test(issue.field))?.message ?? error.readableMessage,
        );
      } else {
        uiState.showError(error);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Inicio" heading={t('home.title', { appName: config.appName })}>
      <p className="page-subtitle">{t('home.subtitle')}</p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="phone-row">
          <div className="field phone-prefix">
            <label htmlFor="phone-prefix">{t('home.prefix')}</label>
            <select id="phone-prefix" defaultValue={config.country.phonePrefix}>
              <option value={config.country.phonePrefix}>{config.country.phonePrefix}</option>
            </select>
          </div>
          <div className="field phone-number">
            <label htmlFor="phone-number">{t('home.phone')}</label>
            <div className="input-with-icon">
              <input
                ref={field}
                id="phone-number"
                type="tel"
                inputMode="tel"
                autoComplete="tel-national"
                maxLength={PHONE_TYPING_MAX_LENGTH}
                value={typed}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'phone-number-error' : undefined}
                onChange={(event) => onType(event.currentTarget.value)}
              />
              {valid && (
                <svg
                  className="valid-check"
                  viewBox="0 0 24 24"
                  width="22"
                  height="22"
                  role="img"
                  aria-label={t('home.phoneValid')}
                >
                  <circle cx="12" cy="12" r="11" fill="#1e9e4a" />
                  <path
                    d="M7 12.5l3.2 3.2L17 9"
                    fill="none"
                    stroke="#fff"
                    strokeWidth="2.4"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </svg>
              )}
            </div>
            {error && (
              <p id="phone-number-error" className="field-error" role="alert">
                {error}
              </p>
            )}
          </div>
        </div>
        <Button type="submit" disabled={!valid || busy}>
          {t('common.continue')}
        </Button>
        {proven && phone === proven && (
          <Button
            variant="link"
            onClick={() => {
              // Someone else on this phone: nothing of the previous person stays.
              returning().then(
                ({ forgetPerson }) => {
                  forgetPerson();
                  setTyped('');
                },
                (failure: unknown) => uiState.showError(failure),
              );
            }}
          >
            {t('code.changePhone')}
          </Button>
        )}
      </form>
      <p className="fine-print">
        {t('home.privacyIntro')}{' '}
        <a href={config.privacyNoticeUrl} target="_blank" rel="noopener noreferrer">
          {t('home.privacy')}
        </a>
      </p>
    </Page>
  );
}
