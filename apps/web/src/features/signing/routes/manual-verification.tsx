import { Page } from '../../../shared/ui/page.js';
import { s } from '../lib/copy.js';
import { isCollateral, useSigner } from '../lib/signer-route.js';

/** …/manual-verification (SPEC §2.4): a person checks the documents; who hears about it next. */
export function ManualVerificationRoute() {
  const { personType } = useSigner();
  return (
    <Page title={s('manual.title')} heading={s('manual.title')}>
      <p className="page-subtitle">{s('manual.text')}</p>
      <p className="page-subtitle">{s(isCollateral(personType) ? 'manual.collateral' : 'manual.titular')}</p>
    </Page>
  );
}
