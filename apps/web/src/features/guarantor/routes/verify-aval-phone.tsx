import { chatLink } from '@provee/domain';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMediaQuery } from '../../../shared/hooks/use-media-query.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatE164 } from '../../../shared/lib/format.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { ChatIcon } from '../../../shared/ui/chat-icon.js';
import { Page } from '../../../shared/ui/page.js';
import {
  getAvalInvitation,
  lookupPublicIp,
  consentText,
  pollAvalValidation,
  startAvalConsent,
  type AvalConsentStarted,
} from '../api/guarantor.js';
import { avalConsentStorage } from '../lib/consent-storage.js';
import { g } from '../lib/copy.js';

const POLL_EVERY_MS = 3_000;
/** About two minutes of 'pending' on this page, then 'Lo sentimos'. */
const MAX_POLLS = 40;

/** SPEC §4 validationResult, plus 'pending' while the guarantor's message has not arrived. */
type ValidationResult = '' | 'loading' | 'pending' | 'success' | 'error';

/** Where the page starts: the link's query, else what this tab stored before leaving for the messaging app. */
function arrival(query: URLSearchParams) {
  const stored = avalConsentStorage.get();
  const queryToken = query.get('token');
  // A stored consent belongs to its own link: another invitation starts afresh.
  const own = stored && (!queryToken || stored.token === queryToken) ? stored : null;
  const sessionId = query.get('sessionUuid') ?? own?.session_id ?? '';
  return {
    token: queryToken ?? own?.token ?? null,
    sessionId,
    started: own && own.session_id === sessionId ? own.started : undefined,
    names: {
      collateralName: query.get('collateral_name') ?? own?.collateralName ?? '',
      shopkeeperName: query.get('shopkeeper_name') ?? own?.shopkeeperName ?? '',
    },
    ids: {
      user_id: query.get('user_id') ?? own?.user_id ?? '',
      collateral_id: query.get('collateral_id') ?? own?.collateral_id ?? '',
    },
  };
}

/**
 * The guarantor's own link (SPEC §2.5 /verify-aval-phone): they accept the credit check and prove
 * the number is theirs by sending a message from it (reverse OTP); the page then says how it went.
 */
export function VerifyAvalPhoneRoute() {
  const [query] = useSearchParams();
  const config = useConfig();
  const wide = useMediaQuery('(min-width: 768px)');
  const [initial] = useState(() => arrival(query));
  const { token } = initial;
  const [names, setNames] = useState(initial.names);
  const [ids, setIds] = useState(initial.ids);
  const [sessionId, setSessionId] = useState(initial.sessionId);
  const [started, setStarted] = useState<AvalConsentStarted | undefined>(initial.started);
  const [result, setResult] = useState<ValidationResult>(initial.sessionId ? 'loading' : '');
  const [answered, setAnswered] = useState(false);
  const [busy, setBusy] = useState(false);
  const redirectedTo = useRef<string | null>(null);
  // What accepting means, word for word: the text the server records with the consent.
  const [consent, setConsent] = useState('');
  useEffect(() => {
    consentText().then(
      (text) => setConsent(text.text),
      () => undefined, // a courtesy copy: the server records the text whatever the page showed
    );
  }, []);

  // Before the consent, the invitation says who is asked and by whom (the query may say it too).
  useEffect(() => {
    if (!token || initial.sessionId) return;
    let live = true;
    getAvalInvitation(token).then(
      (invitation) => {
        if (!live) return;
        setNames({ collateralName: invitation.collateralName, shopkeeperName: invitation.shopkeeperName });
        setIds({ user_id: invitation.user_id, collateral_id: invitation.collateral_id });
        if (invitation.status !== 'PENDING') setAnswered(true);
      },
      (error: unknown) => live && uiState.showError(error),
    );
    return () => {
      live = false;
    };
  }, [token, initial.sessionId]);

  // With a session: ask where it stands every 3 s until the message arrived, failed or time ran out.
  useEffect(() => {
    if (!sessionId) return;
    let stopped = false;
    let polls = 0;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      polls += 1;
      try {
        const validation = await pollAvalValidation(sessionId);
        if (stopped) return;
        if (validation !== 'pending') {
          setResult(validation);
          return;
        }
        setResult('pending');
      } catch (error) {
        if (stopped) return;
        // A refused session (unknown, malformed) will not get better; no answer (3G) is asked again.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
          setResult('error');
          return;
        }
      }
      if (polls >= MAX_POLLS) setResult('error');
      else timer = setTimeout(tick, POLL_EVERY_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId]);

  // Back from the messaging app without a reload (the app opened over the page, or the back-forward
  // cache): the redirect's spinner goes, the page shows the message and keeps polling.
  useEffect(() => {
    const back = (event: Event) => {
      const shown = event.type === 'pageshow' || document.visibilityState === 'visible';
      if (!shown || !redirectedTo.current || uiState.get().redirectUrl !== redirectedTo.current) return;
      redirectedTo.current = null;
      uiState.reset();
      // Back on the page: now ask where the session stands.
      const stored = avalConsentStorage.get();
      if (stored) setSessionId(stored.session_id);
    };
    window.addEventListener('pageshow', back);
    document.addEventListener('visibilitychange', back);
    return () => {
      window.removeEventListener('pageshow', back);
      document.removeEventListener('visibilitychange', back);
    };
  }, []);

  const accept = async () => {
    setBusy(true);
    try {
      const ip = await lookupPublicIp(config.ipLookupUrl);
      const data = await startAvalConsent(token, {
        account_type_id: 'SK',
        account_id: ids.user_id,
        collateral_id: ids.collateral_id,
        ip_address: ip,
      });
      // Kept for the return from the messaging app (a reload of this page finds the session).
      avalConsentStorage.set({ session_id: data.session_id, token, ...ids, ...names, started: data });
      setStarted(data);
      setResult('loading');
      // A phone opens the messaging app with the message ready (polling starts when it comes back:
      // a call still in flight would be cut by the redirect); a wide screen shows it and polls.
      if (!wide && data.redirection_url) {
        redirectedTo.current = data.redirection_url;
        uiState.redirect(data.redirection_url);
      } else {
        setSessionId(data.session_id);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setAnswered(true);
      uiState.showError(error);
    } finally {
      setBusy(false);
    }
  };

  if (result === 'success') {
    return (
      <Page title={g('verify.successTitle')} heading={g('verify.successTitle')}>
        <p className="page-subtitle">{g('verify.successText')}</p>
      </Page>
    );
  }

  if (result === 'error') {
    return (
      <Page title={g('verify.errorTitle')} heading={g('verify.errorTitle')}>
        <p className="page-subtitle">{g('verify.errorText')}</p>
        <a
          className="btn btn-chat"
          href={chatLink(config.supportChatNumber, g('verify.supportChat'))}
          target="_blank"
          rel="noopener noreferrer"
        >
          <ChatIcon size={22} />
          {g('verify.support')}
        </a>
      </Page>
    );
  }

  return (
    <Page
      title={g('verify.title')}
      heading={names.collateralName ? g('nip.greeting', { name: names.collateralName }) : g('nip.greetingUnnamed')}
    >
      <p className="page-subtitle">
        {names.shopkeeperName ? g('verify.request', { shopkeeper: names.shopkeeperName }) : g('verify.requestUnnamed')}
      </p>
      {result === '' ? (
        answered ? (
          <p className="notice" role="status">
            {g('verify.answered')}
          </p>
        ) : (
          <>
            <p className="page-subtitle">{g('verify.ask', { lender: config.appName })}</p>
            {consent && <p className="consent-text">{consent}</p>}
            <Button onClick={() => void accept()} disabled={busy || !ids.user_id || !ids.collateral_id}>
              {g('verify.accept')}
            </Button>
            <p className="fine-print">{g('verify.how')}</p>
          </>
        )
      ) : started ? (
        <>
          <p className="page-subtitle">{g('verify.send')}</p>
          <div className="message-box">
            <p className="message-label">{t('reverse.message')}</p>
            <p className="message-text">{started.message}</p>
            <p className="message-meta">
              {t('reverse.destination', { destination: formatE164(config.country, started.destination) })}
            </p>
          </div>
          <a className="btn btn-chat" href={started.whatsapp_url} target="_blank" rel="noopener noreferrer">
            <ChatIcon size={22} />
            {t('reverse.whatsapp')}
          </a>
          <a className="btn btn-secondary" href={started.sms_url}>
            {t('reverse.sms')}
          </a>
          <div className="waiting">
            <p role="status">
              <span className="spinner spinner-small" aria-hidden="true" /> {t('reverse.waiting')}
            </p>
          </div>
        </>
      ) : (
        <p className="waiting" role="status">
          <span className="spinner spinner-small" aria-hidden="true" /> {g('verify.loading')}
        </p>
      )}
    </Page>
  );
}
