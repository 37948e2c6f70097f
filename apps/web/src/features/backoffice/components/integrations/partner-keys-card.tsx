import { PARTNER_SCOPES, type CreatePartnerKeyBody, type PartnerKeyView } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { partnerKeys } from '../../integrations-api.js';
import { formatDateTime } from '../../lib/format.js';
import { scopeName } from '../../lib/integration-labels.js';
import { useSubmit } from '../../lib/use-submit.js';
import { DataTable } from '../data-table.js';
import { Dialog } from '../dialog.js';
import { ErrorMessage } from '../messages.js';

type Run = (call: () => Promise<unknown>, success: string) => Promise<void>;

const expired = (key: PartnerKeyView) => key.expires_at !== null && Date.parse(key.expires_at) <= Date.now();

function KeyState({ partnerKey }: { partnerKey: PartnerKeyView }) {
  if (partnerKey.revoked_at)
    return <span className="bo-badge bo-badge--rejected">Revocada el {formatDateTime(partnerKey.revoked_at)}</span>;
  if (expired(partnerKey)) return <span className="bo-badge bo-badge--warn">Vencida</span>;
  return <span className="bo-badge bo-badge--approved">Activa</span>;
}

/** 'Llaves de la API': the keys the lender's systems call the partner API with. */
export function PartnerKeysCard({
  keys,
  run,
  onCreate,
}: {
  keys: readonly PartnerKeyView[];
  run: Run;
  /** The new key and its token, which the page shows once. */
  onCreate: (body: CreatePartnerKeyBody) => Promise<void>;
}) {
  return (
    <section className="bo-card" aria-labelledby="bo-partner-keys">
      <h2 id="bo-partner-keys">Llaves de la API</h2>
      <p className="bo-muted">
        Con una llave, los sistemas del prestamista consultan las solicitudes y registran sus decisiones por la API.
      </p>
      {keys.length === 0 ? (
        <p>Todavía no hay llaves.</p>
      ) : (
        <DataTable
          caption="Llaves de la API"
          columns={['Nombre', 'Prefijo', 'Permisos', 'Vence', 'Último uso', 'Creada', 'Estado', 'Acciones']}
        >
          {keys.map((key) => (
            <tr key={key.id} className={key.revoked_at ? 'bo-row--done' : undefined}>
              <th scope="row">{key.name}</th>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.scopes.map(scopeName).join(', ')}</td>
              <td className="bo-nowrap">{key.expires_at ? formatDateTime(key.expires_at) : 'Nunca'}</td>
              <td className="bo-nowrap">{key.last_used_at ? formatDateTime(key.last_used_at) : 'Nunca'}</td>
              <td className="bo-nowrap">{formatDateTime(key.created_at)}</td>
              <td>
                <KeyState partnerKey={key} />
              </td>
              <td>
                {!key.revoked_at && (
                  <RevokeKey
                    name={key.name}
                    run={() => run(() => partnerKeys.revoke(key.id), `Llave «${key.name}» revocada`)}
                  />
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CreatePartnerKey run={onCreate} />
    </section>
  );
}

/** Revoking is for good: asked first. */
function RevokeKey({ name, run }: { name: string; run: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const { pending, error, submit } = useSubmit();
  const revoke = async () => {
    if (await submit(run)) setOpen(false);
  };
  return (
    <>
      <button
        type="button"
        className="bo-button bo-button--small bo-button--quiet"
        aria-label={`Revocar la llave ${name}`}
        onClick={() => setOpen(true)}
      >
        Revocar
      </button>
      {open && (
        <Dialog title={`¿Revocar la llave «${name}»?`} onClose={() => setOpen(false)}>
          <p>Los sistemas que la usan dejan de entrar en ese momento. No se puede deshacer: para volver, crea otra.</p>
          <ErrorMessage error={error} />
          <div className="bo-actions">
            <button
              type="button"
              className="bo-button bo-button--danger"
              disabled={pending}
              onClick={() => void revoke()}
            >
              Revocar
            </button>
            <button type="button" className="bo-button bo-button--quiet" onClick={() => setOpen(false)}>
              Cancelar
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}

const DEFAULT_DAYS = '365';
const EMPTY = { name: '', scopes: [] as string[], days: DEFAULT_DAYS, never: false };

function CreatePartnerKey({ run }: { run: (body: CreatePartnerKeyBody) => Promise<void> }) {
  const [fields, setFields] = useState(EMPTY);
  const { pending, error, submit } = useSubmit();
  const toggle = (scope: string, on: boolean) =>
    setFields({
      ...fields,
      scopes: on
        ? PARTNER_SCOPES.filter((s) => s === scope || fields.scopes.includes(s))
        : fields.scopes.filter((s) => s !== scope),
    });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body: CreatePartnerKeyBody = {
      name: fields.name,
      scopes: fields.scopes as CreatePartnerKeyBody['scopes'],
      // The API checks the range and answers in words (an empty field reads as none given).
      expires_in_days: fields.never ? null : fields.days.trim() === '' ? Number.NaN : Number(fields.days),
    };
    if (await submit(() => run(body))) setFields(EMPTY);
  };
  return (
    <form className="bo-subsection bo-form" onSubmit={onSubmit} aria-labelledby="bo-new-key" noValidate>
      <h3 id="bo-new-key">Crear llave</h3>
      <label className="bo-field--medium">
        Nombre
        <input
          value={fields.name}
          maxLength={100}
          placeholder="Sistema de originación"
          onChange={(e) => setFields({ ...fields, name: e.target.value })}
          autoComplete="off"
        />
      </label>
      <fieldset className="bo-choices">
        <legend>Permisos</legend>
        <div className="bo-choices__list">
          {PARTNER_SCOPES.map((scope) => (
            <label key={scope} className="bo-check">
              <input
                type="checkbox"
                checked={fields.scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              <span>
                {scopeName(scope)} <code className="bo-muted">{scope}</code>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="bo-form--row">
        <label>
          Vence en (días)
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={730}
            value={fields.never ? '' : fields.days}
            disabled={fields.never}
            onChange={(e) => setFields({ ...fields, days: e.target.value })}
          />
        </label>
        <label className="bo-check">
          <input
            type="checkbox"
            checked={fields.never}
            onChange={(e) => setFields({ ...fields, never: e.target.checked })}
          />
          No vence (hasta que se revoque)
        </label>
      </div>
      <p className="bo-muted">Al crearla verás la llave una sola vez.</p>
      <ErrorMessage error={error} />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={pending}>
          Crear llave
        </button>
      </div>
    </form>
  );
}
