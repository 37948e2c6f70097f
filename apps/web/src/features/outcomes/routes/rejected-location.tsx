import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';

/** Out of the served area (SPEC §2.3 item 15): 'Finalizar' goes to the lender's public site. */
export function RejectedLocationRoute() {
  const { publicSiteUrl } = useConfig();
  return (
    <Page title={t('outOfService.title')} heading={t('outOfService.title')}>
      <p className="page-subtitle">{t('outOfService.text')}</p>
      <Button onClick={() => uiState.redirect(publicSiteUrl)}>{t('outOfService.finish')}</Button>
    </Page>
  );
}
