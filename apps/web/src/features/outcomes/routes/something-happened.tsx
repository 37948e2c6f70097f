import { chatLink } from '@provee/domain';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { ChatIcon } from '../../../shared/ui/chat-icon.js';
import { Page } from '../../../shared/ui/page.js';

/** When a check could not finish in time (waiting exhausted, review countdown expired). */
export function SomethingHappenedRoute() {
  const { supportChatNumber } = useConfig();
  return (
    <Page title={t('somethingHappened.title')} heading={t('somethingHappened.title')}>
      <p className="page-subtitle">{t('somethingHappened.text')}</p>
      <a
        className="btn btn-chat"
        href={chatLink(supportChatNumber, t('somethingHappened.chat'))}
        target="_blank"
        rel="noopener noreferrer"
      >
        <ChatIcon size={22} />
        {t('rejected.support')}
      </a>
    </Page>
  );
}
