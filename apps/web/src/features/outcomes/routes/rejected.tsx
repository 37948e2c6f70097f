import { useEffect, useState } from 'react';
import { t } from '../../../shared/lib/copy.js';
import { forgetRejection, rejectionReason } from '../../../shared/lib/rejection.js';
import { SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Page } from '../../../shared/ui/page.js';

/** 'Lo sentimos' (SPEC §2.3 item 8): a kind refusal and a way to talk to a person. */
export function RejectedRoute() {
  // The server's reason when the refusal gave one (shown once), the general text otherwise.
  const [reason] = useState(rejectionReason);
  useEffect(forgetRejection, []);
  return (
    <Page title={t('rejected.title')} heading={t('rejected.title')}>
      <p className="page-subtitle">{reason ?? t('rejected.text')}</p>
      <SupportChatLink message={t('rejected.supportChat')} label={t('rejected.support')} />
    </Page>
  );
}
