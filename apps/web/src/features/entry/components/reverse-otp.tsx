import { SESSION_KEYS, type PhoneAuthentication } from '@provee/domain';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/lib/api-client.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatE164, formatPhone } from '../../../shared/lib/format.js';
import { session as storage } from '../../../shared/lib/session.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { useMediaQuery } from '../../../shared/hooks/use-media-query.js';
import { Button } from '../../../shared/ui/button.js';
import { ChatLink } from '../../../shared/ui/chat-link.js';
import { Countdown } from '../../../shared/ui/countdown.js';
import { Page } from '../../../shared/ui/page.js';
import { lookupPublicIp, pollReverseOtp, startReverseOtp, type ReverseOtpSession } from '../api/phone-proof.js';
import { changePhone } from '../lib/change-phone.js';
import { completeProof } from '../lib/complete-proof.js';

const QrCode = lazy(() => import('./qr-code.js').then((m) => ({ default: m.QrCode })));

const POLL_EVERY_MS = 3_000;

type Shown = ReverseOtpSession & { secondsLeft: number };

/** Read when an answer arrives (not while rendering), so the countdown starts from it. */
function withTimeLeft(session: ReverseOtpSession): Shown {
  return {
    ...session,
    secondsLeft: Math.max(0, Math.round((new Date(session.expires_at).getTime() - Date.now()) / 1000)),
  };
}

interface ReverseOtpProps {
  phone: string;
  sessionId: string;
  /** What the start call answered, when this device started the session. */
  initial?: ReverseOtpSession | undefined;
  /** The tab lost its session (it ended, a saved link): say why the number is proven again (issue 27). */
  resume?: boolean;
}

/**
 * The default proof (otp-vendor 'veriphone'): the shopkeeper sends a short message from the
 * phone they typed; the screen polls until the server says verified, failed or expired.
 * Any device that opens /home/{phone}?sessionUuid={id} follows the same session.
 */
export function ReverseOtp({ phone, sessionId, initial, resume = false }: ReverseOtpProps) {
  const config = useConfig();
  const navigate = useNavigate();
  const wide = useMediaQuery('(min-width: 768px)');
  const wideRef = useRef(wide);
  useEffect(() => {
    wideRef.current = wide;
  }, [wide]);
  const [details, setDetails] = useState<Shown | undefined>(() =>
    initial?.session_id === sessionId ? withTimeLeft(initial) : undefined,
  );
  const [expired, setExpired] = useState(false);

  const finish = useCallback(
    (proof: PhoneAuthentication['data']) =>
      navigate(completeProof(proof, phone, config.webLeadApiKey), { replace: true }),
    [navigate, phone, config.webLeadApiKey],
  );

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const { data } = await pollReverseOtp(sessionId);
        if (stopped) return;
        if ('authentication' in data) {
          stopped = true;
          finish(data);
          return;
        }
        setDetails((shown) => (shown?.session_id === data.session_id ? shown : withTimeLeft(data)));
      } catch (error) {
        if (stopped) return;
        if (error instanceof ApiError && error.status === 401) {
          stopped = true;
          // SPEC §8's text asks to scan the QR code; a phone-sized screen shows none, so it gets
          // the same advice without it (back to /home, retry from the phone of the request).
          uiState.showError(wideRef.current ? error : t('reverse.failedOnPhone'), { goTo: '/home' });
          return;
        }
        if (error instanceof ApiError && (error.status === 410 || error.status === 404)) {
          stopped = true;
          setExpired(true);
          return;
        }
        // No answer this time (3G drops): just ask again.
      }
      timer = setTimeout(tick, POLL_EVERY_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId, finish]);

  const retry = async () => {
    try {
      const ip = await lookupPublicIp(config.ipLookupUrl);
      const { data } = await startReverseOtp(phone, ip);
      storage.set(SESSION_KEYS.sessionUuid, data.session_id);
      setExpired(false);
      setDetails(withTimeLeft(data));
      navigate(`/home/${phone}?sessionUuid=${data.session_id}`, { replace: true, state: { session: data, resume } });
    } catch (error) {
      uiState.showError(error);
    }
  };

  return (
    <Page title={t('reverse.title')} heading={t('reverse.title')}>
      {resume && (
        <p className="saved-note" role="note">
          {t('proof.resume')}
        </p>
      )}
      <p className="page-subtitle">{t('reverse.text', { phone: formatPhone(config.country, phone) })}</p>
      {expired ? (
        <>
          <p className="notice" role="alert">
            {t('reverse.expired')}
          </p>
          <Button onClick={retry}>{t('reverse.retry')}</Button>
        </>
      ) : details ? (
        <>
          <div className="message-box">
            <p className="message-label">{t('reverse.message')}</p>
            <p className="message-text">{details.message}</p>
            <p className="message-meta">
              {t('reverse.destination', {
                destination: formatE164(config.country, details.destination),
              })}
            </p>
          </div>
          <ChatLink href={details.whatsapp_url} label={t('reverse.whatsapp')} />
          <a className="btn btn-secondary" href={details.sms_url}>
            {t('reverse.sms')}
          </a>
          {wide && (
            <figure className="qr">
              <Suspense fallback={<div className="qr-code" />}>
                <QrCode value={details.whatsapp_url} label={t('reverse.qrAlt')} />
              </Suspense>
              <figcaption>{t('reverse.qr')}</figcaption>
            </figure>
          )}
          <div className="waiting">
            <p role="status">
              <span className="spinner spinner-small" aria-hidden="true" /> {t('reverse.waiting')}
            </p>
            <p>
              {t('reverse.expiresIn')} <Countdown key={details.session_id} seconds={details.secondsLeft} />
            </p>
          </div>
        </>
      ) : (
        <p className="waiting" role="status">
          <span className="spinner spinner-small" aria-hidden="true" /> {t('common.loading')}
        </p>
      )}
      <Button variant="link" onClick={() => changePhone(navigate)}>
        {t('code.changePhone')}
      </Button>
    </Page>
  );
}
