import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { Page } from '../../../shared/ui/page.js';

/** The hand-off to the mobile app (SPEC §2.3 item 11). */
export function DownloadRoute() {
  return useStepGuard('advisor') ? <DownloadScreen /> : null;
}

function DownloadScreen() {
  const { appStoreUrl, country } = useConfig();
  return (
    <Page title={t('download.title')} heading={t('download.title')}>
      <p className="page-subtitle">{t('download.text', { storeType: country.storeType.toLowerCase() })}</p>
      <a className="btn btn-primary" href={appStoreUrl} target="_blank" rel="noopener noreferrer">
        {t('download.cta')}
      </a>
    </Page>
  );
}
