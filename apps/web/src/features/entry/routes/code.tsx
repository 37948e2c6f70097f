import { RESEND_WAIT_SECONDS, SECURITY_CODE_LENGTH } from '@provee/domain';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatPhone } from '../../../shared/lib/format.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { CodeForm } from '../../../shared/ui/code-form.js';
import { Countdown } from '../../../shared/ui/countdown.js';
import { Page } from '../../../shared/ui/page.js';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useResend } from '../../../shared/hooks/use-resend.js';
import { confirmCode, requestCode } from '../api/phone-proof.js';
import { changePhone } from '../lib/change-phone.js';
import { codeScreenState, type CodeRequestOutcome } from '../lib/code-state.js';
import { completeProof } from '../lib/complete-proof.js';
import { GoWhereItStands } from '../components/go-where-it-stands.js';
import { provenPhone } from '../../../shared/lib/proven-phone.js';
import { retryAfterSeconds } from '../../../shared/lib/retry-after.js';

const secondsUntil = (at: number) => Math.max(0, Math.ceil((at - Date.now()) / 1000));

/**
 * 'Código de seguridad': the SMS flow, used when the link names another otp-vendor. `next` (from
 * the router) warms the screen a new number goes to while the code is typed. It says what is true
 * (issue 27): a code sent now, or none sent and the last one still good until it expires, with the
 * real countdowns (the times come from the server's answer, and survive a reload).
 */
export function CodeRoute({ next }: NextProps) {
  const { phoneNumber = '' } = useParams();
  const config = useConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const [arrived] = useState(() =>
    codeScreenState(location.state as CodeRequestOutcome | null, Date.now(), RESEND_WAIT_SECONDS),
  );
  const [code, setCode] = useState('');
  const resend = useResend(() => ({ seconds: secondsUntil(arrived.resendAt), waiting: true }));
  // No code sent on arrival: the last one, while it works (null: none works, ask for a new one).
  const [lastCode, setLastCode] = useState(() =>
    arrived.sentNow ? undefined : arrived.expiresAt ? { seconds: secondsUntil(arrived.expiresAt) } : null,
  );
  // Checked on arrival only: the proof made here sets it too, and navigates on its own.
  const [alreadyProven] = useState(() => provenPhone() === phoneNumber);
  usePrefetch(alreadyProven ? undefined : next);

  if (!/^\d{10}$/.test(phoneNumber)) return <Navigate to="/home" replace />;
  // Back or reload onto the code of a number this tab already proved: no new code.
  if (alreadyProven) return <GoWhereItStands phone={phoneNumber} />;

  const onSubmit = async () => {
    try {
      const { data } = await confirmCode(phoneNumber, code);
      navigate(completeProof(data, phoneNumber, config.webLeadApiKey), { replace: true });
    } catch (error) {
      setCode('');
      uiState.showError(error);
    }
  };

  const onResend = async () => {
    resend.hideSent();
    try {
      const { data } = await requestCode(phoneNumber);
      resend.restart(data.resend_after_seconds);
      setLastCode(undefined);
      resend.showSent();
    } catch (error) {
      const wait = retryAfterSeconds(error);
      if (wait !== null) resend.restart(wait);
      uiState.showError(error);
    }
  };

  return (
    <Page title={t('code.title')} heading={t('code.title')}>
      {arrived.resume && (
        <p className="saved-note" role="note">
          {t('proof.resume')}
        </p>
      )}
      <p className="page-subtitle">
        {lastCode === undefined ? t('code.text') : lastCode ? t('code.textLast') : t('code.textWait')}{' '}
        <strong className="nowrap">{formatPhone(config.country, phoneNumber)}</strong>
      </p>
      {lastCode && (
        <p className="resend-wait">
          {lastCode.seconds > 0 ? (
            <>
              {t('code.lastExpiresIn')}{' '}
              <Countdown seconds={lastCode.seconds} onDone={() => setLastCode({ seconds: 0 })} />
            </>
          ) : (
            t('code.lastExpired')
          )}
        </p>
      )}
      <CodeForm
        length={SECURITY_CODE_LENGTH}
        label={t('code.title')}
        value={code}
        onChange={setCode}
        onSubmit={onSubmit}
        submitLabel={t('common.continue')}
        resend={resend}
        onResend={() => void onResend()}
        resendCopy={{ button: t('code.resend'), waiting: t('code.resendIn'), sent: t('code.resent') }}
      />
      <Button variant="link" onClick={() => changePhone(navigate)}>
        {t('code.changePhone')}
      </Button>
    </Page>
  );
}
