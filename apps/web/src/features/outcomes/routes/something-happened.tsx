import { chatLink } from '@provee/domain';
import { useSearchParams } from 'react-router';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { ChatIcon } from '../../../shared/ui/chat-icon.js';
import { Page } from '../../../shared/ui/page.js';

/**
 * When a check could not finish in time (waiting exhausted, review countdown expired). A guarantor
 * (?person_type=collateral, from the review countdown) is told to contact the person they
 * guarantee (SPEC §2.4): the credit is theirs, and they hear how it goes.
 */
export function SomethingHappenedRoute() {
  const { supportChatNumber } = useConfig();
  const [query] = useSearchParams();
  const guarantor = query.get('person_type') === 'collateral';
  return (
    <Page title={t('somethingHappened.title')} heading={t('somethingHappened.title')}>
      <p className="page-subtitle">{t(guarantor ? 'somethingHappened.documents' : 'somethingHappened.text')}</p>
      {guarantor && <p className="page-subtitle">{t('somethingHappened.guarantor')}</p>}
      <a
        className="btn btn-chat"
        href={chatLink(supportChatNumber, t(guarantor ? 'somethingHappened.guarantorChat' : 'somethingHappened.chat'))}
        target="_blank"
        rel="noopener noreferrer"
      >
        <ChatIcon size={22} />
        {t('rejected.support')}
      </a>
    </Page>
  );
}
