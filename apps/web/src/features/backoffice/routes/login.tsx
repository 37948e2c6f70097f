import type { StaffLoginOptionsResponse, StaffSessionView } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { API } from '../api.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { stagePath } from '../lib/login-steps.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';
import { session } from '../security-api.js';

/** Why single sign-on sent the person back here (/sso/callback's ?sso=), in words. */
const SSO_REASONS: Record<string, string> = {
  unknown: 'Tu cuenta de la empresa no tiene acceso al back office. Pide a un administrador que te dé de alta.',
  unverified:
    'Tu cuenta de la empresa no tiene el correo verificado. Verifícalo con tu área de sistemas e intenta de nuevo.',
  failed: 'No se pudo completar el inicio de sesión con la cuenta de la empresa. Intenta de nuevo.',
  expired: 'El inicio de sesión tardó demasiado o se abrió en otra pestaña. Intenta de nuevo.',
  unavailable: 'El servicio de inicio de sesión de la empresa no responde ahora. Intenta de nuevo en unos minutos.',
};

type LoginOptions = StaffLoginOptionsResponse['data'];
/** If the options cannot be read, the password form is the safe guess (the API refuses it if off). */
const FALLBACK: LoginOptions = { password: true, sso: null };

/** /backoffice/login: the password (when allowed) or single sign-on; then the second factor's step. */
export function LoginRoute({ onLogin }: { onLogin: (view: StaffSessionView) => void }) {
  useTitle('Iniciar sesión');
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const options = useResource('login-options', session.loginOptions);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { pending, error, submit } = useSubmit();
  const ssoReason = query.get('sso');
  const available = options.data ?? (options.error ? FALLBACK : null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    let view: StaffSessionView | undefined;
    if (await submit(async () => (view = await session.login({ email, password })))) {
      onLogin(view!);
      navigate(stagePath(view!.stage, query.get('next')), { replace: true });
    }
  };

  return (
    <main className="bo-login">
      <div className="bo-card bo-form bo-login__card">
        <p className="bo-brand">Provee · Back office</p>
        <h1>Iniciar sesión</h1>
        {ssoReason && (
          <p className="bo-error" role="alert">
            {SSO_REASONS[ssoReason] ?? SSO_REASONS.failed}
          </p>
        )}
        {!available && <Loading />}
        {available?.password && (
          <form className="bo-form" onSubmit={onSubmit} noValidate>
            <label>
              Correo electrónico
              <input
                type="email"
                name="email"
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                required
              />
            </label>
            <label>
              Contraseña
              <input
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                required
              />
            </label>
            <ErrorMessage error={error} />
            <button type="submit" className="bo-button" disabled={pending}>
              Iniciar sesión
            </button>
          </form>
        )}
        {available?.password && available.sso && <p className="bo-divider">o</p>}
        {available?.sso && (
          // A full-page visit: the server sends the browser to the identity provider and back.
          <a className="bo-button bo-button--quiet bo-button--link bo-button--block" href={`${API}/sso/start`}>
            Entrar con {available.sso.name}
          </a>
        )}
        {available && !available.password && !available.sso && (
          <p className="bo-error" role="alert">
            No hay ninguna forma de iniciar sesión configurada. Avisa a tu área de sistemas.
          </p>
        )}
      </div>
    </main>
  );
}
