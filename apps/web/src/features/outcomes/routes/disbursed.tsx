import { useParams } from 'react-router';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatAmount } from '../../../shared/lib/format.js';
import { Page } from '../../../shared/ui/page.js';
import { useLenderApproval } from '../lib/use-lender-approval.js';

/** The lender disbursed the credit (issue 30): the amount, and the mobile app from here on. */
export function DisbursedRoute() {
  return useStepGuard('disbursed') ? <DisbursedScreen /> : null;
}

function DisbursedScreen() {
  const { userId = '' } = useParams();
  const { appStoreUrl, country } = useConfig();
  const approval = useLenderApproval(userId);
  return (
    <Page title={t('disbursed.title')} heading={t('disbursed.title')}>
      {approval !== undefined && (
        <>
          {approval ? (
            <>
              <p className="page-subtitle">{t('disbursed.text')}</p>
              <p className="amount">{formatAmount(approval.amount, approval.currency, country.locale)}</p>
            </>
          ) : (
            <p className="page-subtitle">{t('disbursed.textNoAmount')}</p>
          )}
          <p className="page-subtitle">{t('disbursed.app', { storeType: country.storeType.toLowerCase() })}</p>
          <a className="btn btn-primary" href={appStoreUrl} target="_blank" rel="noopener noreferrer">
            {t('download.cta')}
          </a>
        </>
      )}
    </Page>
  );
}
