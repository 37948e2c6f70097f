import { useSearchParams } from 'react-router';
import { t } from '../../../shared/lib/copy.js';
import { SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Page } from '../../../shared/ui/page.js';

/**
 * When a check could not finish in time (waiting exhausted, review countdown expired). A guarantor
 * (?person_type=collateral, from the review countdown) is told to contact the person they
 * guarantee (SPEC §2.4): the credit is theirs, and they hear how it goes.
 */
export function SomethingHappenedRoute() {
  const [query] = useSearchParams();
  const guarantor = query.get('person_type') === 'collateral';
  return (
    <Page title={t('somethingHappened.title')} heading={t('somethingHappened.title')}>
      <p className="page-subtitle">{t(guarantor ? 'somethingHappened.documents' : 'somethingHappened.text')}</p>
      {guarantor && <p className="page-subtitle">{t('somethingHappened.guarantor')}</p>}
      <SupportChatLink
        message={t(guarantor ? 'somethingHappened.guarantorChat' : 'somethingHappened.chat')}
        label={t('rejected.support')}
      />
    </Page>
  );
}
