import type { FactorEnrolledResponse, StaffSessionView } from '@provee/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LoginCard } from '../components/login-card.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { PasskeyEnrolment } from '../components/security/passkey-enrolment.js';
import { RecoveryCodes } from '../components/security/recovery-codes.js';
import { TotpEnrolment } from '../components/security/totp-enrolment.js';
import { safeNext } from '../lib/login-steps.js';
import { passkeysOffered } from '../lib/passkey.js';
import { usePendingSession } from '../lib/pending-session.js';

type Enrolled = FactorEnrolledResponse['data'];

interface Props {
  session: StaffSessionView | null;
  onLogin: (view: StaffSessionView) => void;
}

/**
 * /backoffice/login/enrol: the first login of a role that needs a second factor (or after an admin
 * reset them): an authenticator app or a passkey, then the recovery codes, shown this once.
 */
export function LoginEnrolRoute({ session, onLogin }: Props) {
  const navigate = useNavigate();
  const { view, error, next } = usePendingSession('enrol', session);
  const [enrolled, setEnrolled] = useState<Enrolled | null>(null);
  useTitle(enrolled ? 'Tus códigos de recuperación' : 'Protege tu cuenta');

  const finish = (active: StaffSessionView) => {
    onLogin(active);
    navigate(safeNext(next), { replace: true });
  };
  const onEnrolled = (result: Enrolled) => (result.recovery_codes ? setEnrolled(result) : finish(result.session));

  if (enrolled?.recovery_codes)
    return (
      <LoginCard title="Tus códigos de recuperación" wide>
        <RecoveryCodes
          codes={enrolled.recovery_codes}
          email={enrolled.session.staff.email}
          onDone={() => finish(enrolled.session)}
        />
      </LoginCard>
    );

  return (
    <LoginCard title="Protege tu cuenta" wide>
      <ErrorMessage error={error} />
      {!view && !error && <Loading />}
      {view && (
        <>
          <p>
            Hola, <strong>{view.staff.name}</strong>. Para entrar al back office necesitas, además de tu contraseña, un
            segundo factor: un código de una aplicación de tu teléfono o una llave de acceso. Configúralo ahora; toma un
            minuto.
          </p>
          <h2>Aplicación de autenticación</h2>
          <TotpEnrolment onEnrolled={onEnrolled} />
          {passkeysOffered() && (
            <div className="bo-subsection">
              <h2>O una llave de acceso</h2>
              <p className="bo-muted">La huella, la cara o el PIN de este equipo, o una llave de seguridad USB.</p>
              <PasskeyEnrolment label="Usar una llave de acceso" onEnrolled={onEnrolled} />
            </div>
          )}
        </>
      )}
    </LoginCard>
  );
}
