import { SESSION_KEYS } from '@provee/domain';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatPhone } from '../../../shared/lib/format.js';
import { session } from '../../../shared/lib/session.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { LoadingOverlay } from '../../../shared/ui/spinner.js';
import { startProof } from '../lib/start-proof.js';

/**
 * `/home/{phone}/verify` (issue 27, decision 025): a tab whose session ended, or that has none (a
 * saved step link), proves the number again, then goes where the application stands; what the
 * step kept is there on return. The tab that proved this number before asks for the new code at
 * once; any other (a link opened from elsewhere) first shows the number and asks to send it, so a
 * link from another site cannot send messages to a number by itself being opened.
 */
export function VerifyRoute() {
  const { phoneNumber = '' } = useParams();
  const config = useConfig();
  const navigate = useNavigate();
  const valid = /^\d{10}$/.test(phoneNumber);
  const ours = valid && session.get(SESSION_KEYS.provenPhone) === phoneNumber;
  const [sending, setSending] = useState(ours);
  const started = useRef(false);

  useEffect(() => {
    if (!valid) navigate('/home', { replace: true });
  }, [valid, navigate]);

  useEffect(() => {
    if (!sending || started.current) return;
    started.current = true;
    startProof(phoneNumber, config.ipLookupUrl, navigate, true).catch((error: unknown) => {
      started.current = false;
      setSending(false);
      uiState.showError(error, { goTo: `/home/${phoneNumber}` });
    });
  }, [sending, phoneNumber, config.ipLookupUrl, navigate]);

  if (!valid || sending) return <LoadingOverlay visible />;
  return (
    <Page title={t('proof.confirmTitle')} heading={t('proof.confirmTitle')}>
      <p className="page-subtitle">{t('proof.resume')}</p>
      <p className="page-subtitle">
        <strong className="nowrap">{formatPhone(config.country, phoneNumber)}</strong>
      </p>
      <Button onClick={() => setSending(true)}>{t('common.continue')}</Button>
    </Page>
  );
}
