import { STAFF_RECOVERY_CODE_COUNT, STAFF_ROLES_REQUIRING_SECOND_FACTOR, type StaffRole } from '@provee/domain';
import { useState } from 'react';
import { ActionButton } from '../components/actions.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { PasskeyEnrolment } from '../components/security/passkey-enrolment.js';
import { RecoveryCodes } from '../components/security/recovery-codes.js';
import { TotpEnrolment } from '../components/security/totp-enrolment.js';
import { formatDateTime } from '../lib/format.js';
import { passkeysOffered } from '../lib/passkey.js';
import { useSession } from '../lib/staff-context.js';
import { useStepUp } from '../lib/step-up.js';
import { useResource } from '../lib/use-resource.js';
import { myFactors } from '../security-api.js';

/**
 * /backoffice/security ('Mi seguridad', everyone): one's second factors. The authenticator app,
 * passkeys (add, remove) and the recovery codes (how many are left, new ones). Adding a factor to
 * an account that has one, removing a passkey and new codes need a recent second factor.
 */
export function SecurityRoute() {
  useTitle('Mi seguridad');
  const { session, setSession } = useSession();
  const ensure = useStepUp();
  const factors = useResource('my-factors', myFactors.list);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [settingUpApp, setSettingUpApp] = useState(false);
  const [flash, setFlash] = useState('');
  const required = (STAFF_ROLES_REQUIRING_SECOND_FACTOR as readonly StaffRole[]).includes(session.staff.role);
  const data = factors.data;
  const hasFactor = !!data && (data.totp || data.passkeys.length > 0);

  const enrolled = (message: string) => (result: { session: typeof session; recovery_codes: string[] | null }) => {
    setSession(result.session);
    setSettingUpApp(false);
    setFlash(message);
    if (result.recovery_codes) setCodes(result.recovery_codes);
    factors.reload();
  };
  /** A factor more, on an account that has one: a stolen session must not add its own. */
  const confirmFirst = () => (hasFactor ? ensure() : Promise.resolve(true));

  return (
    <section aria-labelledby="bo-security">
      <h1 id="bo-security">Mi seguridad</h1>
      <p className="bo-muted">
        {required
          ? 'Tu rol necesita un segundo factor para entrar: la aplicación de autenticación, una llave de acceso o ambas.'
          : 'Un segundo factor protege tu cuenta aunque alguien sepa tu contraseña.'}
      </p>
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      <ErrorMessage error={factors.error} />
      {!data && factors.loading && <Loading />}
      {codes && (
        <div className="bo-card">
          <RecoveryCodes
            title="Tus códigos de recuperación nuevos"
            codes={codes}
            email={session.staff.email}
            onDone={() => setCodes(null)}
          />
        </div>
      )}
      {data && !codes && (
        <div className="bo-security">
          <section className="bo-card" aria-labelledby="bo-security-app">
            <h2 id="bo-security-app">Aplicación de autenticación</h2>
            {data.totp ? (
              <p>
                <span className="bo-badge bo-badge--approved">Configurada</span> Entras con el código de 6 dígitos que
                muestra tu teléfono.
              </p>
            ) : settingUpApp ? (
              <TotpEnrolment onEnrolled={enrolled('Aplicación de autenticación configurada.')} />
            ) : (
              <>
                <p>
                  <span className="bo-badge bo-badge--warn">No configurada</span> Google Authenticator, Microsoft
                  Authenticator, 1Password u otra.
                </p>
                <ActionButton
                  label="Configurar la aplicación"
                  run={async () => {
                    if (await confirmFirst()) setSettingUpApp(true);
                  }}
                />
              </>
            )}
            {data.totp && (
              <p className="bo-muted">
                ¿Cambiaste de teléfono? Pide a un administrador que restablezca tu segundo factor.
              </p>
            )}
          </section>

          <section className="bo-card" aria-labelledby="bo-security-passkeys">
            <h2 id="bo-security-passkeys">Llaves de acceso</h2>
            <Passkeys passkeys={data.passkeys} onRemoved={factors.reload} />
            {passkeysOffered() ? (
              <PasskeyEnrolment
                label="Agregar llave de acceso"
                named
                before={confirmFirst}
                onEnrolled={enrolled('Llave de acceso agregada.')}
              />
            ) : (
              <p className="bo-muted">Este navegador o esta dirección no permite llaves de acceso.</p>
            )}
          </section>

          <section className="bo-card" aria-labelledby="bo-security-codes">
            <h2 id="bo-security-codes">Códigos de recuperación</h2>
            <p>
              Te quedan <strong>{data.recovery_codes_left}</strong> de {STAFF_RECOVERY_CODE_COUNT}. Cada uno sirve una
              vez si pierdes tu teléfono o tu llave.
            </p>
            {hasFactor ? (
              <ActionButton
                label="Generar códigos nuevos"
                run={async () => {
                  // Asked by the API (403 STEP_UP_REQUIRED) when the last factor is old; the old codes stop working.
                  setCodes(await myFactors.newRecoveryCodes());
                  setFlash('Generaste códigos nuevos: los anteriores ya no sirven.');
                  factors.reload();
                }}
              />
            ) : (
              <p className="bo-muted">Primero configura la aplicación o una llave de acceso.</p>
            )}
          </section>
        </div>
      )}
    </section>
  );
}

type Passkey = { id: string; name: string; created_at: string; last_used_at: string | null };

function Passkeys({ passkeys, onRemoved }: { passkeys: Passkey[]; onRemoved: () => void }) {
  if (passkeys.length === 0) return <p className="bo-muted">No tienes llaves de acceso.</p>;
  return (
    <ul className="bo-passkeys">
      {passkeys.map((passkey) => (
        <li key={passkey.id}>
          <span>
            <strong>{passkey.name}</strong>
            <span className="bo-muted">
              {' '}
              · agregada el {formatDateTime(passkey.created_at)} ·{' '}
              {passkey.last_used_at ? `último uso: ${formatDateTime(passkey.last_used_at)}` : 'sin usar todavía'}
            </span>
          </span>
          <ActionButton
            label="Quitar"
            name={`Quitar la llave ${passkey.name}`}
            run={async () => {
              await myFactors.removePasskey(passkey.id);
              onRemoved();
            }}
          />
        </li>
      ))}
    </ul>
  );
}
