import { RESEND_WAIT_SECONDS, SECURITY_CODE_LENGTH } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../shared/lib/api-client.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatPhone } from '../../../shared/lib/format.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { CodeInput } from '../../../shared/ui/code-input.js';
import { Countdown } from '../../../shared/ui/countdown.js';
import { Page } from '../../../shared/ui/page.js';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { confirmCode, requestCode } from '../api/phone-proof.js';
import { changePhone } from '../lib/change-phone.js';
import { completeProof } from '../lib/complete-proof.js';
import { GoWhereItStands } from '../components/go-where-it-stands.js';
import { provenPhone } from '../../../shared/lib/proven-phone.js';

/**
 * 'Código de seguridad': the SMS flow, used when the link names another otp-vendor. `next` (from
 * the router) warms the screen a new number goes to while the code is typed.
 */
export function CodeRoute({ next }: NextProps) {
  const { phoneNumber = '' } = useParams();
  const config = useConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const firstWait = (location.state as { wait?: number } | null)?.wait ?? RESEND_WAIT_SECONDS;
  const [code, setCode] = useState('');
  // Each (re)start of the resend countdown gets a new key and length.
  const [resend, setResend] = useState({ key: 0, seconds: firstWait, waiting: true });
  const [resent, setResent] = useState(false);
  // Checked on arrival only: the proof made here sets it too, and navigates on its own.
  const [alreadyProven] = useState(() => provenPhone() === phoneNumber);
  usePrefetch(alreadyProven ? undefined : next);

  if (!/^\d{10}$/.test(phoneNumber)) return <Navigate to="/home" replace />;
  // Back or reload onto the code of a number this tab already proved: no new code.
  if (alreadyProven) return <GoWhereItStands phone={phoneNumber} />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== SECURITY_CODE_LENGTH) return;
    try {
      const { data } = await confirmCode(phoneNumber, code);
      navigate(completeProof(data, phoneNumber, config.webLeadApiKey), { replace: true });
    } catch (error) {
      setCode('');
      uiState.showError(error);
    }
  };

  const onResend = async () => {
    setResent(false);
    try {
      const { data } = await requestCode(phoneNumber);
      setResend((current) => ({ key: current.key + 1, seconds: data.resend_after_seconds, waiting: true }));
      setResent(true);
    } catch (error) {
      const wait = error instanceof ApiError ? error.details.retry_after_seconds : undefined;
      if (typeof wait === 'number') setResend((current) => ({ key: current.key + 1, seconds: wait, waiting: true }));
      uiState.showError(error);
    }
  };

  return (
    <Page title={t('code.title')} heading={t('code.title')}>
      <p className="page-subtitle">
        {t('code.text')} <strong className="nowrap">{formatPhone(config.country, phoneNumber)}</strong>
      </p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <CodeInput length={SECURITY_CODE_LENGTH} value={code} onChange={setCode} label={t('code.title')} autoFocus />
        <Button type="submit" disabled={code.length !== SECURITY_CODE_LENGTH}>
          {t('common.continue')}
        </Button>
      </form>
      <div className="resend">
        <Button variant="secondary" disabled={resend.waiting} onClick={onResend}>
          {t('code.resend')}
        </Button>
        {resend.waiting && (
          <p className="resend-wait">
            {t('code.resendIn')}{' '}
            <Countdown
              key={resend.key}
              seconds={resend.seconds}
              onDone={() => setResend((current) => ({ ...current, waiting: false }))}
            />
          </p>
        )}
        {resent && (
          <p className="resend-done" role="status">
            {t('code.resent')}
          </p>
        )}
      </div>
      <Button variant="link" onClick={() => changePhone(navigate)}>
        {t('code.changePhone')}
      </Button>
    </Page>
  );
}
