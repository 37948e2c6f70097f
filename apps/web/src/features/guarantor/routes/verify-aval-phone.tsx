import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/lib/api-client.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatE164 } from '../../../shared/lib/format.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { ChatLink, SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Page } from '../../../shared/ui/page.js';
import {
  getAvalInvitation,
  lookupPublicIp,
  consentText,
  startAvalConsent,
  type AvalConsentStarted,
} from '../api/guarantor.js';
import { avalConsentStorage } from '../lib/consent-storage.js';
import { g } from '../lib/copy.js';
import { useConsentWatch } from '../lib/use-consent-watch.js';

/** Where the page starts: the link's query, else what this tab stored after 'Aceptar Consulta'. */
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
 * the number is theirs by sending a message from it (reverse OTP). The page never leaves: the
 * messaging app opens beside it (a new tab or the app itself), the page says to come back, and it
 * shows how it went as soon as the server knows (use-consent-watch.ts).
 */
export function VerifyAvalPhoneRoute() {
  const [query] = useSearchParams();
  const config = useConfig();
  const [initial] = useState(() => arrival(query));
  const { token } = initial;
  const [names, setNames] = useState(initial.names);
  const [ids, setIds] = useState(initial.ids);
  const [sessionId, setSessionId] = useState(initial.sessionId);
  const [started, setStarted] = useState<AvalConsentStarted | undefined>(initial.started);
  const watched = useConsentWatch(sessionId);
  const result = sessionId ? watched : '';
  const [answered, setAnswered] = useState(false);
  const [busy, setBusy] = useState(false);
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
      // Kept for a reload of this tab (or the browser reopening it after the messaging app).
      avalConsentStorage.set({ session_id: data.session_id, token, ...ids, ...names, started: data });
      // The page stays: the person opens the messaging app from the links below, this tab keeps
      // waiting for the message (not a redirect to redirection_url, which would take the page away).
      setStarted(data);
      setSessionId(data.session_id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setAnswered(true);
      uiState.showError(error);
    } finally {
      setBusy(false);
    }
  };

  const tryAgain = () => {
    avalConsentStorage.clear();
    setStarted(undefined);
    setSessionId('');
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
        {token && (
          // The message never came in time (the session ended): with the invitation's link, a new try.
          <Button onClick={tryAgain}>{t('reverse.retry')}</Button>
        )}
        <SupportChatLink message={g('verify.supportChat')} label={g('verify.support')} />
      </Page>
    );
  }

  return (
    <Page
      title={g('verify.title')}
      heading={names.collateralName ? g('nip.greeting', { name: names.collateralName }) : g('nip.greetingUnnamed')}
    >
      {result === '' ? (
        <p className="page-subtitle">
          {names.shopkeeperName
            ? g('verify.request', { shopkeeper: names.shopkeeperName })
            : g('verify.requestUnnamed')}
        </p>
      ) : (
        started && <p className="page-subtitle">{g('verify.send')}</p>
      )}
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
          <ol className="tips">
            <li>{g('verify.step1')}</li>
            <li>{g('verify.step2')}</li>
            <li>
              <strong>{g('verify.step3')}</strong>
            </li>
          </ol>
          <div className="message-box">
            <p className="message-label">{t('reverse.message')}</p>
            <p className="message-text">{started.message}</p>
            <p className="message-meta">
              {t('reverse.destination', { destination: formatE164(config.country, started.destination) })}
            </p>
          </div>
          <ChatLink href={started.whatsapp_url} label={t('reverse.whatsapp')} />
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
