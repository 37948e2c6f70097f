import {
  STAFF_PASSWORD_MIN_LENGTH,
  STAFF_ROLES,
  type StaffCreateBody,
  type StaffRole,
  type StaffView,
} from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { staffAccounts } from '../api.js';
import { ActionButton } from '../components/actions.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDateTime } from '../lib/format.js';
import { ROLE_NAMES, roleName } from '../lib/labels.js';
import { useStaff } from '../lib/staff-context.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';

const lockedNow = (member: StaffView) => member.locked_until !== null && Date.parse(member.locked_until) > Date.now();

/** /backoffice/staff (admins): who may enter the back office, and as what. */
export function StaffRoute() {
  useTitle('Personal');
  const me = useStaff();
  const list = useResource('staff', staffAccounts.list);
  const [flash, setFlash] = useState('');
  const run = async (call: () => Promise<unknown>, success: string) => {
    setFlash('');
    await call();
    setFlash(success);
    list.reload();
  };

  return (
    <section aria-labelledby="bo-staff">
      <h1 id="bo-staff">Personal</h1>
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      <ErrorMessage error={list.error} />
      {!list.data && list.loading && <Loading />}
      {list.data && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <thead>
              <tr>
                <th scope="col">Nombre</th>
                <th scope="col">Correo</th>
                <th scope="col">Rol</th>
                <th scope="col">Estado</th>
                <th scope="col">Último acceso</th>
                <th scope="col">Acciones</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((member) => (
                <tr key={member.id} className={member.active ? undefined : 'bo-row--done'}>
                  <th scope="row">
                    {member.name}
                    {member.id === me.id && <span className="bo-muted"> (tú)</span>}
                  </th>
                  <td>{member.email}</td>
                  <td>
                    {member.id === me.id ? (
                      roleName(member.role)
                    ) : (
                      <RoleChanger
                        member={member}
                        onChange={(role) =>
                          run(
                            () => staffAccounts.update(member.id, { role }),
                            `${member.name} ahora es ${roleName(role).toLowerCase()}`,
                          )
                        }
                      />
                    )}
                  </td>
                  <td>
                    {member.active ? 'Activa' : 'Desactivada'}
                    {lockedNow(member) && (
                      <span className="bo-badge bo-badge--warn">
                        Bloqueada hasta {formatDateTime(member.locked_until)}
                      </span>
                    )}
                  </td>
                  <td className="bo-nowrap">{formatDateTime(member.last_login_at)}</td>
                  <td>
                    {member.id !== me.id && (
                      <ActionButton
                        label={member.active ? 'Desactivar' : 'Activar'}
                        name={`${member.active ? 'Desactivar' : 'Activar'} la cuenta de ${member.name}`}
                        run={() =>
                          run(
                            () => staffAccounts.update(member.id, { active: !member.active }),
                            `Cuenta de ${member.name} ${member.active ? 'desactivada' : 'activada'}`,
                          )
                        }
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CreateStaff run={(body) => run(() => staffAccounts.create(body), `Cuenta de ${body.name} creada`)} />
    </section>
  );
}

function RoleChanger({ member, onChange }: { member: StaffView; onChange: (role: StaffRole) => Promise<void> }) {
  const [role, setRole] = useState<StaffRole>(member.role);
  const { pending, error, submit } = useSubmit();
  return (
    <form
      className="bo-form--row"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(() => onChange(role));
      }}
    >
      <select aria-label={`Rol de ${member.name}`} value={role} onChange={(e) => setRole(e.target.value as StaffRole)}>
        {STAFF_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_NAMES[r]}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="bo-button bo-button--small"
        disabled={pending || role === member.role}
        aria-label={`Cambiar el rol de ${member.name}`}
      >
        Cambiar
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}

const EMPTY: StaffCreateBody = { name: '', email: '', role: 'advisor', password: '' };

function CreateStaff({ run }: { run: (body: StaffCreateBody) => Promise<void> }) {
  const [body, setBody] = useState(EMPTY);
  const { pending, error, setError, submit } = useSubmit();
  const set = (key: keyof StaffCreateBody) => (e: { target: { value: string } }) =>
    setBody({ ...body, [key]: e.target.value });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (body.password.length < STAFF_PASSWORD_MIN_LENGTH)
      return setError(`La contraseña necesita al menos ${STAFF_PASSWORD_MIN_LENGTH} caracteres.`);
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
      <label>
        Rol
        {/* Named on its own: a wrapping label would also read out every option. */}
        <select aria-label="Rol" value={body.role} onChange={set('role')}>
          {STAFF_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_NAMES[r]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Contraseña inicial (mínimo {STAFF_PASSWORD_MIN_LENGTH} caracteres)
        <input
          type="password"
          value={body.password}
          maxLength={200}
          onChange={set('password')}
          autoComplete="new-password"
        />
      </label>
      <ErrorMessage error={error} />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={pending}>
          Crear cuenta
        </button>
      </div>
    </form>
  );
}
