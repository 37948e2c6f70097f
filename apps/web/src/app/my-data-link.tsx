import { Link, matchPath, useLocation } from 'react-router';
import { t } from '../shared/lib/copy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * "Mis datos" (issue 31) under every screen of a shopkeeper who proved their phone and has an
 * application: the screens whose address carries the phone and the application's id.
 */
export function MyDataLink() {
  const { pathname } = useLocation();
  const match = matchPath('/:phoneNumber/:userId/:screen', pathname);
  const { phoneNumber = '', userId = '', screen } = match?.params ?? {};
  if (!/^\d{7,15}$/.test(phoneNumber) || !UUID.test(userId) || screen === 'mis-datos') return null;
  return (
    <nav className="my-data-link" aria-label={t('shell.myData')}>
      <Link to={`/${phoneNumber}/${userId}/mis-datos`}>{t('shell.myData')}</Link>
    </nav>
  );
}
