import { useNavigate } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { t } from '../../../shared/lib/copy.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { s } from '../lib/copy.js';
import { signingPath, useSigner } from '../lib/signer-route.js';

/** …/approved-documents (SPEC §2.4): identity approved, on to the signature. */
export function ApprovedDocumentsRoute({ next }: NextProps) {
  const signer = useSigner();
  const navigate = useNavigate();
  usePrefetch(next);
  return (
    <Page title={s('approved.title')} heading={s('approved.title')}>
      <p className="page-subtitle">{s('approved.text')}</p>
      <Button onClick={() => navigate(signingPath(signer), { replace: true })}>{t('common.continue')}</Button>
    </Page>
  );
}
