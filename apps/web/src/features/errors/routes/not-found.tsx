import { useNavigate } from 'react-router';
import { t } from '../../../shared/lib/copy.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';

/** 'Regresar' goes back one page; opened directly (no history) it goes to the start. */
export function NotFoundRoute() {
  const navigate = useNavigate();
  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate('/home', { replace: true });
  };
  return (
    <Page title={t('notFound.title')} heading={t('notFound.title')}>
      <p className="page-subtitle">{t('notFound.text')}</p>
      <Button onClick={goBack}>{t('common.back')}</Button>
    </Page>
  );
}
