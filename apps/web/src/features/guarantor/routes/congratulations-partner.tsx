import { useConfig } from '../../../shared/lib/config.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { g } from '../lib/copy.js';

/** The guarantor's thank-you (SPEC §2.5): 'Finalizar' goes to the lender's public site. */
export function CongratulationsPartnerRoute() {
  const { publicSiteUrl } = useConfig();
  return (
    <Page title={g('thanks.title')} heading={g('thanks.title')}>
      <p className="page-subtitle">{g('thanks.text')}</p>
      <Button onClick={() => uiState.redirect(publicSiteUrl)}>{g('thanks.finish')}</Button>
    </Page>
  );
}
