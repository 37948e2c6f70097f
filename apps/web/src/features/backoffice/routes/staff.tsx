import type { PasswordLinkView, StaffView } from '@provee/domain';
import { useState } from 'react';
import { ActionButton } from '../components/actions.js';
import { DataTable } from '../components/data-table.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { CreateStaff } from '../components/staff/create-staff.js';
import { PasswordLinkCard } from '../components/staff/password-link-card.js';
import { ResetFactors } from '../components/staff/reset-factors.js';
import { RoleChanger } from '../components/staff/role-changer.js';
import { formatDateTime } from '../lib/format.js';
import { roleName } from '../lib/labels.js';
import { useStaff } from '../lib/staff-context.js';
import { useResource } from '../lib/use-resource.js';
import { session, staffAccounts } from '../security-api.js';

const lockedNow = (member: StaffView) => member.locked_until !== null && Date.parse(member.locked_until) > Date.now();

function SecondFactor({ member }: { member: StaffView }) {
  if (member.second_factor) return <span className="bo-badge bo-badge--approved">Configurado</span>;
  if (member.must_enrol) return <span className="bo-badge bo-badge--warn">Lo configura al entrar</span>;
  return <span className="bo-muted">Sin segundo factor</span>;
}

/**
 * /backoffice/staff (admins): who may enter the back office, and as what. Every change asks for a
 * recent second factor (the API answers 403 STEP_UP_REQUIRED and the layout asks for it).
 */
export function StaffRoute() {
  useTitle('Personal');
  const me = useStaff();
  const list = useResource('staff', staffAccounts.list);
  const options = useResource('login-options', session.loginOptions);
  const [flash, setFlash] = useState('');
  const [link, setLink] = useState<{ name: string; link: PasswordLinkView } | null>(null);
  const run = async (call: () => Promise<unknown>, success: string) => {
    setFlash('');
    await call();
    setFlash(success);
    list.reload();
  };
  const ssoOnly = options.data && !options.data.password ? (options.data.sso?.name ?? null) : null;

  return (
    <section aria-labelledby="bo-staff">
      <h1 id="bo-staff">Personal</h1>
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      {link && <PasswordLinkCard name={link.name} link={link.link} onClose={() => setLink(null)} />}
      <ErrorMessage error={list.error} />
      {!list.data && list.loading && <Loading />}
      {list.data && (
        <DataTable columns={['Nombre', 'Correo', 'Rol', 'Estado', 'Segundo factor', 'Último acceso', 'Acciones']}>
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
                  <span className="bo-badge bo-badge--warn">Bloqueada hasta {formatDateTime(member.locked_until)}</span>
                )}
              </td>
              <td>
                <SecondFactor member={member} />
              </td>
              <td className="bo-nowrap">{formatDateTime(member.last_login_at)}</td>
              <td className="bo-row-actions">
                {member.id !== me.id && (
                  <>
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
                    {!ssoOnly && (
                      <ActionButton
                        label="Nuevo enlace de contraseña"
                        name={`Nuevo enlace de contraseña para ${member.name}`}
                        run={async () => {
                          setFlash('');
                          setLink({ name: member.name, link: await staffAccounts.passwordLink(member.id) });
                        }}
                      />
                    )}
                    {member.second_factor && (
                      <ResetFactors
                        member={member}
                        run={() =>
                          run(
                            () => staffAccounts.resetFactors(member.id),
                            `Segundo factor de ${member.name} restablecido: lo configurará en su próximo inicio de sesión`,
                          )
                        }
                      />
                    )}
                  </>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CreateStaff
        ssoOnly={ssoOnly}
        run={async (body) => {
          await run(async () => {
            const created = await staffAccounts.create(body);
            setLink(created.password_link && { name: created.staff.name, link: created.password_link });
          }, `Cuenta de ${body.name} creada`);
        }}
      />
    </section>
  );
}
