import { STAFF_PASSWORD_MIN_LENGTH } from '@provee/domain';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { LOGIN } from '../lib/login-steps.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';
import { passwordLinks } from '../security-api.js';

/** The token of `#token=…`: in the fragment, so it never reaches a server's log or a Referer. */
const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';

/**
 * /backoffice/password#token=…: the single-use link an admin hands over (a new account, or a
 * forgotten password). The token leaves the address bar at once; the person picks a password.
 */
export function PasswordRoute() {
  useTitle('Crea tu contraseña');
  const id = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenOf(location.hash));
  const owner = useResource(token ? `link:${token}` : null, () => passwordLinks.owner(token));
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const { pending, error, setError, submit } = useSubmit();

  // Out of the address bar (and the history) before anything else: a shared screen or a
  // bookmark must not carry it.
  useEffect(() => {
    if (location.hash) navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true });
  }, [location, navigate]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if ([...password].length < STAFF_PASSWORD_MIN_LENGTH)
      return setError(`La contraseña debe tener al menos ${STAFF_PASSWORD_MIN_LENGTH} caracteres.`);
    if (password !== repeat) return setError('Las dos contraseñas no coinciden.');
    if (await submit(() => passwordLinks.setPassword(token, password))) setDone(true);
  };

  return (
    <main className="bo-login">
      <div className="bo-card bo-login__card">
        <p className="bo-brand">Provee · Back office</p>
        <h1>Crea tu contraseña</h1>
        {!token && (
          <p className="bo-error" role="alert">
            Este enlace está incompleto. Ábrelo tal como te lo enviaron, o pide a un administrador uno nuevo.
          </p>
        )}
        {owner.loading && <Loading />}
        <ErrorMessage error={owner.error} />
        {done && owner.data && (
          <>
            <p className="bo-ok" role="status">
              Listo, {owner.data.name}: tu contraseña quedó guardada.
            </p>
            <p>
              <Link className="bo-button bo-button--link" to={LOGIN}>
                Iniciar sesión
              </Link>
            </p>
          </>
        )}
        {!done && owner.data && (
          <form className="bo-form" onSubmit={onSubmit} noValidate>
            <p>
              Hola, <strong>{owner.data.name}</strong>. Elige la contraseña de tu cuenta{' '}
              <strong>{owner.data.email}</strong>.
            </p>
            {/* For the browser's password manager: whose password this is. */}
            <input type="email" name="username" autoComplete="username" value={owner.data.email} readOnly hidden />
            <label>
              Contraseña nueva
              <input
                type="password"
                autoComplete="new-password"
                value={password}
                maxLength={200}
                aria-describedby={`${id}-hint`}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <p className="bo-muted" id={`${id}-hint`}>
              Al menos {STAFF_PASSWORD_MIN_LENGTH} caracteres. Una frase de varias palabras es fácil de recordar y
              difícil de adivinar; evita tu nombre, tu correo y contraseñas comunes.
            </p>
            <label>
              Repite la contraseña
              <input
                type="password"
                autoComplete="new-password"
                value={repeat}
                maxLength={200}
                onChange={(e) => setRepeat(e.target.value)}
              />
            </label>
            <ErrorMessage error={error} />
            <button type="submit" className="bo-button" disabled={pending}>
              Guardar contraseña
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
