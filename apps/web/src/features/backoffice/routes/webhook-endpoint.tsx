import type { WebhookSendView } from '@provee/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ActionButton } from '../components/actions.js';
import { DataTable } from '../components/data-table.js';
import { Facts } from '../components/detail/section.js';
import { EndpointEvents, EndpointState } from '../components/integrations/endpoint-state.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { webhooks } from '../integrations-api.js';
import { useReportEndpoints } from '../lib/endpoints-alert.js';
import { formatDateTime } from '../lib/format.js';
import { eventTypeName, sendStatusName } from '../lib/integration-labels.js';
import { useResource } from '../lib/use-resource.js';
import { useSubmit } from '../lib/use-submit.js';
import '../components/lender-systems.css';

const STATUS_BADGE: Record<WebhookSendView['status'], string> = {
  PENDING: 'bo-badge bo-badge--waiting',
  DELIVERED: 'bo-badge bo-badge--approved',
  FAILED: 'bo-badge bo-badge--rejected',
};

/** The value of a datetime-local input `hoursAgo` before now, in this browser's time zone. */
function localDateTime(hoursAgo: number, now = new Date()): string {
  const at = new Date(now.getTime() - hoursAgo * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const queuedAgain = (count: number) =>
  count === 0
    ? 'Ninguna entrega fallida desde esa fecha: no se reenvió nada'
    : `${count} ${count === 1 ? 'entrega fallida puesta' : 'entregas fallidas puestas'} de nuevo en la cola`;

/**
 * /backoffice/integrations/endpoints/:endpointId (admins): the latest sends to one endpoint, each
 * one's tries and the receiver's last answer; any send again, or every failed one since a time.
 */
export function WebhookEndpointRoute() {
  const { endpointId = '' } = useParams();
  const list = useResource('endpoints', webhooks.list);
  const sends = useResource(endpointId, () => webhooks.sends(endpointId));
  const [flash, setFlash] = useState('');
  const endpoint = list.data?.endpoints.find((e) => e.id === endpointId);
  useTitle(endpoint ? `Entregas a ${endpoint.url}` : 'Entregas del webhook');
  const report = useReportEndpoints();
  useEffect(() => {
    if (list.data) report?.(list.data.endpoints);
  }, [list.data, report]);

  /** A replay, then what it did (the call's own words) and the log read again. */
  const run = async (call: () => Promise<string>) => {
    setFlash('');
    setFlash(await call());
    sends.reload();
  };

  return (
    <section aria-labelledby="bo-endpoint">
      <p>
        <Link to="/backoffice/integrations">← Integraciones</Link>
      </p>
      <h1 id="bo-endpoint">Entregas del webhook</h1>
      {endpoint && (
        <Facts
          className="bo-summary"
          items={[
            ['Destino', <span className="bo-url">{endpoint.url}</span>],
            ['Descripción', endpoint.description],
            ['Eventos', <EndpointEvents types={endpoint.event_types} />],
            ['Estado', <EndpointState endpoint={endpoint} />],
          ]}
        />
      )}
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      {endpoint && !endpoint.enabled && (
        <p className="bo-error">
          Este destino está desactivado: lo que reenvíes espera en la cola hasta que lo actives en Integraciones.
        </p>
      )}
      <ReplayFailed
        run={(since) => run(async () => queuedAgain(await webhooks.replay(endpointId, { failed_since: since })))}
      />
      <ErrorMessage error={sends.error} />
      {!sends.data && sends.loading && <Loading />}
      {sends.data && sends.data.length === 0 && <p className="bo-muted">Todavía no hay entregas a este destino.</p>}
      {sends.data && sends.data.length > 0 && (
        <DataTable
          caption="Últimas entregas"
          showCaption
          columns={[
            'Creada',
            'Evento',
            'Solicitud',
            'Secuencia',
            'Estado',
            'Intentos',
            'Respuesta',
            'Último error',
            'Último intento',
            'Acciones',
          ]}
        >
          {sends.data.map((send) => (
            <tr key={send.id}>
              <th scope="row" className="bo-nowrap">
                {formatDateTime(send.created_at)}
              </th>
              <td>
                <code title={eventTypeName(send.type)}>{send.type}</code>
              </td>
              <td>
                <Link to={`/backoffice/applications/${send.application_id}`} title={send.application_id}>
                  <code>{send.application_id.slice(0, 8)}</code>
                </Link>
              </td>
              <td className="bo-number">{send.sequence}</td>
              <td>
                <span className={STATUS_BADGE[send.status]}>{sendStatusName(send.status)}</span>
                <SendWhen send={send} />
              </td>
              <td className="bo-number">{send.attempts}</td>
              <td className="bo-number">{send.last_status_code ?? '—'}</td>
              <td className="bo-error-text">{send.last_error ?? '—'}</td>
              <td className="bo-nowrap">{formatDateTime(send.last_attempt_at)}</td>
              <td>
                <ActionButton
                  label="Reenviar"
                  name={`Reenviar ${send.type} n.º ${send.sequence} de la solicitud ${send.application_id.slice(0, 8)}`}
                  run={() =>
                    run(async () => {
                      await webhooks.replay(endpointId, { send_id: send.id });
                      return 'Entrega puesta de nuevo en la cola';
                    })
                  }
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

/** When a pending send is tried again, or when it was delivered. */
function SendWhen({ send }: { send: WebhookSendView }) {
  const [words, at] =
    send.status === 'DELIVERED'
      ? ['Entregada el', send.delivered_at]
      : send.status === 'PENDING'
        ? ['Siguiente intento:', send.next_attempt_at]
        : ['', null];
  if (!at) return null;
  return (
    <span className="bo-state-note">
      {words} {formatDateTime(at)}
    </span>
  );
}

/** Every send failed since a time, again (the API takes the instant with its offset). */
function ReplayFailed({ run }: { run: (since: string) => Promise<void> }) {
  const [since, setSince] = useState(() => localDateTime(24));
  const { pending, error, setError, submit } = useSubmit();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const at = new Date(since);
    if (!since || Number.isNaN(at.getTime())) return setError('Indica desde cuándo (fecha y hora).');
    void submit(() => run(at.toISOString()));
  };
  return (
    <form className="bo-card bo-replay" onSubmit={onSubmit} aria-label="Reenviar fallidas" noValidate>
      <label>
        Reenviar fallidas desde
        <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
      </label>
      <button type="submit" className="bo-button" disabled={pending}>
        Reenviar fallidas
      </button>
      <p className="bo-muted bo-grow">
        Las entregas cuyo último intento falló desde esa fecha y hora vuelven a la cola, en orden.
      </p>
      <ErrorMessage error={error} />
    </form>
  );
}
