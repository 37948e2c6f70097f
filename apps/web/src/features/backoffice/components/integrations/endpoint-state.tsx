import type { WebhookEndpointView } from '@provee/domain';
import { formatDateTime } from '../../lib/format.js';

const stillAhead = (iso: string | null) => iso !== null && Date.parse(iso) > Date.now();

/** Whether an endpoint receives its events: active, failing for a while, or disabled (and why). */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpointView }) {
  if (!endpoint.enabled)
    return (
      <>
        <span className="bo-badge bo-badge--rejected">Desactivado</span>
        <span className="bo-state-note">
          {endpoint.disabled_reason ?? 'Sin motivo registrado'}
          {endpoint.disabled_at && ` · ${formatDateTime(endpoint.disabled_at)}`}
        </span>
      </>
    );
  return (
    <>
      <span className="bo-badge bo-badge--approved">Activo</span>
      {endpoint.failing_since && (
        <span className="bo-badge bo-badge--warn">Fallando desde {formatDateTime(endpoint.failing_since)}</span>
      )}
      {stillAhead(endpoint.previous_secret_until) && (
        <span className="bo-state-note">
          El secreto anterior firma también hasta {formatDateTime(endpoint.previous_secret_until)}
        </span>
      )}
    </>
  );
}

/** 'Todos', or the codes of the types it receives. */
export function EndpointEvents({ types }: { types: readonly string[] }) {
  if (types.length === 0) return <>Todos</>;
  return (
    <ul className="bo-codes">
      {types.map((type) => (
        <li key={type}>
          <code>{type}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * Endpoints disabled (after days of failed sends, or by an admin): the lender's systems there hear
 * nothing until someone enables them again; the events meanwhile wait for them, in order.
 */
export function DisabledEndpointsAlert({ endpoints }: { endpoints: readonly WebhookEndpointView[] }) {
  const disabled = endpoints.filter((endpoint) => !endpoint.enabled);
  if (disabled.length === 0) return null;
  const one = disabled.length === 1;
  const headline = one
    ? 'Un destino de webhooks está desactivado'
    : `${disabled.length} destinos de webhooks están desactivados`;
  const consequence =
    `Mientras ${one ? 'lo esté no recibe' : 'lo estén no reciben'} nada: los eventos esperan, ` +
    `y al activar${one ? 'lo' : 'los'} se envían en orden.`;
  return (
    <div className="bo-error" role="alert">
      <p>
        <strong>{headline}.</strong> {consequence}
      </p>
      <ul>
        {disabled.map((endpoint) => (
          <li key={endpoint.id}>
            {endpoint.url}: {endpoint.disabled_reason ?? 'sin motivo registrado'}
          </li>
        ))}
      </ul>
    </div>
  );
}
