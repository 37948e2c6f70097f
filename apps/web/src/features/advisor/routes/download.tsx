import { useState } from 'react';
import { useParams } from 'react-router';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { applicationState } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { Page } from '../../../shared/ui/page.js';
import { isUnderReview, useDecisionWatch } from '../lib/use-decision-watch.js';

/**
 * The hand-off to the mobile app (SPEC §2.3 item 11). While the lender decides (PENDING_APPROVAL,
 * issue 30) it says so and moves by itself to the decision's screen.
 */
export function DownloadRoute() {
  return useStepGuard('advisor') ? <DownloadScreen /> : null;
}

function DownloadScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const { appStoreUrl, country } = useConfig();
  // Where the application stood when the step guard let the screen show (known by then).
  const [reviewing] = useState(() => isUnderReview(applicationState.get(userId)));
  useDecisionWatch(reviewing, phoneNumber, userId);
  const title = t(reviewing ? 'download.reviewTitle' : 'download.title');
  return (
    <Page title={title} heading={title}>
      {reviewing && (
        <>
          <p className="page-subtitle">{t('download.reviewText')}</p>
          <div className="waiting">
            <p role="status">
              <span className="spinner spinner-small" aria-hidden="true" /> {t('download.reviewWaiting')}
            </p>
          </div>
        </>
      )}
      <p className="page-subtitle">{t('download.text', { storeType: country.storeType.toLowerCase() })}</p>
      <a className="btn btn-primary" href={appStoreUrl} target="_blank" rel="noopener noreferrer">
        {t('download.cta')}
      </a>
    </Page>
  );
}
