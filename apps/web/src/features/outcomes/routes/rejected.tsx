import { chatLink } from '@provee/domain';
import { useEffect, useState } from 'react';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { forgetRejection, rejectionReason } from '../../../shared/lib/rejection.js';
import { ChatIcon } from '../../../shared/ui/chat-icon.js';
import { Page } from '../../../shared/ui/page.js';

/** 'Lo sentimos' (SPEC §2.3 item 8): a kind refusal and a way to talk to a person. */
export function RejectedRoute() {
  const { supportChatNumber } = useConfig();
  // The server's reason when the refusal gave one (shown once), the general text otherwise.
  const [reason] = useState(rejectionReason);
  useEffect(forgetRejection, []);
  return (
    <Page title={t('rejected.title')} heading={t('rejected.title')}>
      <p className="page-subtitle">{reason ?? t('rejected.text')}</p>
      <a
        className="btn btn-chat"
        href={chatLink(supportChatNumber, t('rejected.supportChat'))}
        target="_blank"
        rel="noopener noreferrer"
      >
        <ChatIcon size={22} />
        {t('rejected.support')}
      </a>
    </Page>
  );
}
