import { NIP_LENGTH, NIP_RESENT_MESSAGE_MS, RESEND_WAIT_SECONDS } from '@provee/domain';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useResend } from '../../../shared/hooks/use-resend.js';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { routeAfterSave } from '../../../shared/lib/application-state.js';
import { rememberRejection } from '../../../shared/lib/rejection.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatPhone } from '../../../shared/lib/format.js';
import { retryAfterSeconds } from '../../../shared/lib/retry-after.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { routeAfterConflict } from '../../../shared/lib/users-api.js';
import { CodeForm } from '../../../shared/ui/code-form.js';
import { Page } from '../../../shared/ui/page.js';
import { Stepper } from '../../../shared/ui/stepper.js';
import { confirmNip, consentText, isApproval, sendNip } from '../api/credit.js';

/**
 * 'NIP de Consulta' (SPEC §2.3 item 6): the PIN by SMS authorises the bureau query. Arriving
 * sends it, unless ?already-sent=true. Nothing here outlives the screen.
 */
export function SendNipRoute({ next }: NextProps) {
  usePrefetch(next);
  return useStepGuard('send-nip') ? <SendNipScreen /> : null;
}

function SendNipScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const config = useConfig();
  const alreadySent = params.get('already-sent') === 'true';
  const [nip, setNip] = useState('');
  const [error, setError] = useState('');
  const [consent, setConsent] = useState<{ text: string; sha256: string }>();
  const resend = useResend(() => ({ seconds: alreadySent ? 0 : RESEND_WAIT_SECONDS, waiting: !alreadySent }));
  const sentOnArrival = useRef(false);

  const goToCurrentStep = async (conflict: ApiError) =>
    navigate(await routeAfterConflict(phoneNumber, userId, conflict), { replace: true });
  const goToRejected = (refusal: ApiError) => {
    rememberRejection(refusal);
    navigate('/rejected', { replace: true });
  };

  const send = async (isResend: boolean) => {
    try {
      const sent = await sendNip(userId);
      if (sent.default_nip) setNip(sent.default_nip);
      resend.restart(sent.resend_after_seconds);
      if (isResend) {
        // A new PIN makes the message about the previous wrong one stale.
        setError('');
        resend.showSent(NIP_RESENT_MESSAGE_MS);
      }
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409)
        return void goToCurrentStep(failure).catch(uiState.showError);
      if (failure instanceof ApiError && failure.status === 422) return goToRejected(failure);
      const wait = retryAfterSeconds(failure);
      if (wait !== null) resend.restart(wait);
      if (isResend || wait === null) uiState.showError(failure);
    }
  };

  useEffect(() => {
    consentText().then(setConsent, uiState.showError);
    if (!alreadySent && !sentOnArrival.current) {
      sentOnArrival.current = true;
      void send(false);
    }
    // Once on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async () => {
    try {
      const { data } = await confirmNip(userId, nip, consent?.sha256);
      const next = routeAfterSave(phoneNumber, data);
      if (data.status === 'WAITING') navigate(`/${userId}/waiting`, { replace: true });
      else if (isApproval(data)) navigate(`/${phoneNumber}/${userId}/congratulations`, { replace: true });
      else navigate(next, { replace: true });
    } catch (failure) {
      setNip('');
      if (failure instanceof ApiError && failure.status === 422) goToRejected(failure);
      else if (failure instanceof ApiError && failure.status === 409 && failure.code === 'STEP_NOT_CURRENT')
        await goToCurrentStep(failure).catch(uiState.showError);
      else if (failure instanceof ApiError && failure.status === 400) setError(failure.readableMessage);
      else uiState.showError(failure);
    }
  };

  return (
    <Page title={t('nip.title')} heading={t('nip.title')}>
      <Stepper phase="registration" screen="send-nip" />
      <p className="page-subtitle">{t('nip.subtitle', { phone: formatPhone(config.country, phoneNumber) })}</p>
      <CodeForm
        length={NIP_LENGTH}
        label={t('nip.label')}
        value={nip}
        onChange={(value) => {
          setNip(value);
          setError('');
        }}
        error={error}
        onSubmit={onSubmit}
        submitLabel={t('nip.accept')}
        resend={resend}
        onResend={() => void send(true)}
        resendCopy={{ button: t('nip.resend'), waiting: t('nip.resendIn'), sent: t('nip.resent') }}
      >
        {consent && <p className="consent-text">{consent.text}</p>}
      </CodeForm>
    </Page>
  );
}
