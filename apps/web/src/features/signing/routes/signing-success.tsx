import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { s } from '../lib/copy.js';

/** /singning-success (SPEC §2.4): signed; 'Continuar' leaves for the product's web home. */
export function SigningSuccessRoute() {
  const { publicSiteUrl } = useConfig();
  return (
    <Page title={s('success.title')} heading={s('success.title')}>
      <p className="page-subtitle">{s('success.text')}</p>
      <Button onClick={() => uiState.redirect(publicSiteUrl)}>{t('common.continue')}</Button>
    </Page>
  );
}
