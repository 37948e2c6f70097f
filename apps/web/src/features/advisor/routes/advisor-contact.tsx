import type { MouseEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { useConfig } from '../../../shared/lib/config.js';
import { routeAfterConflict } from '../../../shared/lib/users-api.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Page } from '../../../shared/ui/page.js';
import { Stepper } from '../../../shared/ui/stepper.js';
import { recordAdvisorContact, type ContactType } from '../api/advisor.js';

/** Three ways to go on with an advisor (SPEC §2.3 item 10); each is recorded, then the download. */
export function AdvisorContactRoute() {
  return useStepGuard('advisor') ? <AdvisorContactScreen /> : null;
}

function AdvisorContactScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const { advisorPhone } = useConfig();
  const download = `/${phoneNumber}/${userId}/download`;

  const choose = async (type: ContactType) => {
    try {
      await recordAdvisorContact(userId, type);
      navigate(download);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        await routeAfterConflict(phoneNumber, userId, error).then(
          (target) => navigate(target, { replace: true }),
          uiState.showError,
        );
      } else uiState.showError(error);
    }
  };
  // The call and the chat open in the phone's own apps; the screen records the choice meanwhile.
  const follow = (type: ContactType) => (_event: MouseEvent) => void choose(type);

  return (
    <Page title={t('advisor.title')} heading={t('advisor.title')}>
      <Stepper phase="evaluation" filled={1} />
      <p className="page-subtitle">{t('advisor.subtitle')}</p>
      <a className="btn btn-primary" href={`tel:${advisorPhone}`} onClick={follow('CALL_ADVISER')}>
        {t('advisor.call')}
      </a>
      <Button variant="secondary" onClick={() => void choose('WITH_ADVISER')}>
        {t('advisor.with')}
      </Button>
      <SupportChatLink message={t('advisor.chatText')} label={t('advisor.chat')} onClick={follow('WHATSAPP_CHAT')} />
    </Page>
  );
}
