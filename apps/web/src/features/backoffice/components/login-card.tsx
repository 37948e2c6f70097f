import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { LOGIN } from '../lib/login-steps.js';
import { session } from '../security-api.js';

/** The login's screens: one card in the middle, and a way out to another account. */
export function LoginCard({ title, wide, children }: { title: string; wide?: boolean; children: ReactNode }) {
  const navigate = useNavigate();
  const leave = () => {
    session
      .logout()
      .catch(() => {
        // Gone or not, the person asked to start again.
      })
      .finally(() => navigate(LOGIN, { replace: true }));
  };
  return (
    <main className="bo-login">
      <div className={wide ? 'bo-card bo-login__card bo-login__card--wide' : 'bo-card bo-login__card'}>
        <p className="bo-brand">Provee · Back office</p>
        <h1>{title}</h1>
        {children}
        <p className="bo-login__leave">
          <button type="button" className="bo-link-button" onClick={leave}>
            Entrar con otra cuenta
          </button>
        </p>
      </div>
    </main>
  );
}
