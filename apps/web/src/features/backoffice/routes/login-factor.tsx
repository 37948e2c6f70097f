import type { StaffSessionView } from '@provee/domain';
import { useNavigate } from 'react-router';
import { LoginCard } from '../components/login-card.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { FactorForm } from '../components/security/factor-form.js';
import { safeNext } from '../lib/login-steps.js';
import { usePendingSession } from '../lib/pending-session.js';

interface Props {
  session: StaffSessionView | null;
  onLogin: (view: StaffSessionView) => void;
}

/** /backoffice/login/factor: after the password (or single sign-on), the second factor. */
export function LoginFactorRoute({ session, onLogin }: Props) {
  useTitle('Verificación en dos pasos');
  const navigate = useNavigate();
  const { view, error, next } = usePendingSession('factor', session);
  return (
    <LoginCard title="Verificación en dos pasos">
      <ErrorMessage error={error} />
      {!view && !error && <Loading />}
      {view && (
        <>
          <p>
            Hola, <strong>{view.staff.name}</strong>.{' '}
            {view.factors.includes('totp')
              ? 'Escribe el código que muestra tu aplicación de autenticación.'
              : 'Confirma que eres tú con tu segundo factor.'}
          </p>
          <FactorForm
            factors={view.factors}
            onDone={(active) => {
              onLogin(active);
              navigate(safeNext(next), { replace: true });
            }}
          />
        </>
      )}
    </LoginCard>
  );
}
