import type { StaffView } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { session } from '../api.js';
import { ErrorMessage, useTitle } from '../components/messages.js';
import { useSubmit } from '../lib/use-submit.js';

/** Only back office addresses: a crafted ?next= must not send staff to another site. */
export function safeNext(next: string | null): string {
  if (!next || !/^\/backoffice(?:[/?#]|$)/.test(next) || next.startsWith('/backoffice/login')) return '/backoffice';
  return next;
}

export function LoginRoute({ onLogin }: { onLogin: (staff: StaffView) => void }) {
  useTitle('Iniciar sesión');
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { pending, error, submit } = useSubmit();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    let staff: StaffView | undefined;
    const ok = await submit(async () => {
      staff = await session.login({ email, password });
    });
    if (ok && staff) {
      onLogin(staff);
      navigate(safeNext(query.get('next')), { replace: true });
    }
  };

  return (
    <main className="bo-login">
      <form className="bo-card bo-form" onSubmit={onSubmit} aria-labelledby="bo-login-title" noValidate>
        <p className="bo-brand">Provee · Back office</p>
        <h1 id="bo-login-title">Iniciar sesión</h1>
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
    </main>
  );
}
