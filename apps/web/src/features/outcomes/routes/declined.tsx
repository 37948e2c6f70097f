import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { t } from '../../../shared/lib/copy.js';
import { SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Page } from '../../../shared/ui/page.js';

/**
 * The lender declined the credit (issue 30): thanks, a kind word and a person to talk to. The
 * lender's reason is its own and is never shown here.
 */
export function DeclinedRoute() {
  return useStepGuard('declined') ? <DeclinedScreen /> : null;
}

function DeclinedScreen() {
  return (
    <Page title={t('declined.title')} heading={t('declined.title')}>
      <p className="page-subtitle">{t('declined.text')}</p>
      <p className="page-subtitle">{t('declined.later')}</p>
      <SupportChatLink message={t('declined.chatText')} label={t('declined.chat')} />
    </Page>
  );
}
