import { Link } from 'react-router';
import { t } from '../../../shared/lib/copy.js';
import { Page } from '../../../shared/ui/page.js';

/** Any path the app does not know. */
export function FallbackRoute() {
  return (
    <Page title={t('fallback.title')} heading={t('fallback.title')}>
      <p className="page-subtitle">{t('fallback.text')}</p>
      <Link className="btn btn-primary" to="/home" replace>
        {t('fallback.home')}
      </Link>
    </Page>
  );
}
