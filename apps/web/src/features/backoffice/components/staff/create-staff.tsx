import { STAFF_ROLES, type StaffCreateBody } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { ROLE_NAMES } from '../../lib/labels.js';
import { useSubmit } from '../../lib/use-submit.js';
import { ErrorMessage } from '../messages.js';
import { SelectField } from '../select-field.js';

const ROLE_CHOICES = STAFF_ROLES.map((role) => [role, ROLE_NAMES[role]] as const);
const EMPTY: StaffCreateBody = { name: '', email: '', role: 'advisor' };

/** A new account: no password here; its owner sets one with the link shown next. */
export function CreateStaff({
  run,
  ssoOnly,
}: {
  run: (body: StaffCreateBody) => Promise<void>;
  /** Passwords are off: the person enters with the company's account (single sign-on). */
  ssoOnly: string | null;
}) {
  const [body, setBody] = useState(EMPTY);
  const { pending, error, setError, submit } = useSubmit();
  const set = (key: keyof StaffCreateBody) => (e: { target: { value: string } }) =>
    setBody({ ...body, [key]: e.target.value });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.name.trim() || !body.email.trim()) return setError('Escribe el nombre y el correo de la persona.');
    if (await submit(() => run(body))) setBody(EMPTY);
  };
  return (
    <form className="bo-card bo-form bo-form--grid" onSubmit={onSubmit} aria-labelledby="bo-new-staff" noValidate>
      <h2 id="bo-new-staff">Crear cuenta</h2>
      <label>
        Nombre
        <input value={body.name} maxLength={120} onChange={set('name')} autoComplete="off" />
      </label>
      <label>
        Correo electrónico
        <input type="email" value={body.email} maxLength={200} onChange={set('email')} autoComplete="off" />
      </label>
      <SelectField label="Rol" options={ROLE_CHOICES} value={body.role} onChange={set('role')} />
      <p className="bo-muted bo-form__note">
        {ssoOnly
          ? `La persona entra con ${ssoOnly} usando este correo.`
          : 'La persona crea su contraseña con un enlace de un solo uso que verás al crear la cuenta.'}{' '}
        Analistas y administradores configuran además un segundo factor al entrar por primera vez.
      </p>
      <ErrorMessage error={error} />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={pending}>
          Crear cuenta
        </button>
      </div>
    </form>
  );
}
