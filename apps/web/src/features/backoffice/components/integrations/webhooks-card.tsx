import type { CreateWebhookEndpointBody, WebhookEndpointsView } from '@provee/domain';
import { Link } from 'react-router';
import { webhooks } from '../../integrations-api.js';
import { formatDateTime } from '../../lib/format.js';
import { ActionButton } from '../actions.js';
import { DataTable } from '../data-table.js';
import { CreateEndpoint } from './create-endpoint.js';
import { EndpointEvents, EndpointState } from './endpoint-state.js';
import { RotateSecret } from './rotate-secret.js';

type Run = (call: () => Promise<unknown>, success: string) => Promise<void>;

/** 'Webhooks': where the lender's systems hear about applications, each with its state and actions. */
export function WebhooksCard({
  view,
  run,
  onCreate,
}: {
  view: WebhookEndpointsView;
  run: Run;
  /** The new endpoint and its secret, which the page shows once. */
  onCreate: (body: CreateWebhookEndpointBody) => Promise<void>;
}) {
  return (
    <section className="bo-card" aria-labelledby="bo-webhooks">
      <h2 id="bo-webhooks">Webhooks</h2>
      <p className="bo-muted">
        Avisamos a los sistemas del prestamista de cada cambio en las solicitudes con un POST firmado a cada destino; si
        no responde, reintentamos durante unos tres días.
      </p>
      {view.endpoints.length === 0 ? (
        <p>Todavía no hay destinos.</p>
      ) : (
        <DataTable
          caption="Destinos de webhooks"
          columns={['Dirección', 'Descripción', 'Eventos', 'Estado', 'Creado', 'Acciones']}
        >
          {view.endpoints.map((endpoint) => (
            <tr key={endpoint.id} className={endpoint.enabled ? undefined : 'bo-row--done'}>
              <th scope="row" className="bo-url">
                {endpoint.url}
              </th>
              <td>{endpoint.description || '—'}</td>
              <td>
                <EndpointEvents types={endpoint.event_types} />
              </td>
              <td>
                <EndpointState endpoint={endpoint} />
              </td>
              <td className="bo-nowrap">{formatDateTime(endpoint.created_at)}</td>
              <td className="bo-row-actions">
                <Link
                  className="bo-button bo-button--small bo-button--quiet bo-button--link"
                  to={`/backoffice/integrations/endpoints/${endpoint.id}`}
                  aria-label={`Entregas a ${endpoint.url}`}
                >
                  Entregas
                </Link>{' '}
                <ActionButton
                  label={endpoint.enabled ? 'Desactivar' : 'Activar'}
                  name={`${endpoint.enabled ? 'Desactivar' : 'Activar'} ${endpoint.url}`}
                  run={() =>
                    run(
                      () => webhooks.update(endpoint.id, { enabled: !endpoint.enabled }),
                      `${endpoint.url} ${endpoint.enabled ? 'desactivado' : 'activado'}`,
                    )
                  }
                />
                <RotateSecret
                  url={endpoint.url}
                  run={async (hours) => {
                    let secret = '';
                    await run(async () => {
                      secret = (await webhooks.rotateSecret(endpoint.id, hours)).secret;
                    }, `Secreto de ${endpoint.url} cambiado`);
                    return secret;
                  }}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CreateEndpoint eventTypes={view.event_types} run={onCreate} />
    </section>
  );
}
