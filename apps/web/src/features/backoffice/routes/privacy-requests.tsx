import { privacyQueueRoute, type PrivacyRequestView } from '@provee/domain';
import { useState } from 'react';
import { Link } from 'react-router';
import { backofficeRequest } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDay } from '../../../shared/lib/format.js';
import { formatDateTime } from '../lib/format.js';
import { KIND_NAMES, STATE_NAMES } from '../lib/privacy-labels.js';
import { useResource } from '../lib/use-resource.js';

function RequestRow({ request }: { request: PrivacyRequestView }) {
  return (
    <tr className={request.overdue ? 'bo-row--broken' : undefined}>
      <th scope="row" className="bo-nowrap">
        <Link to={`/backoffice/privacy-requests/${request.id}`}>{request.folio}</Link>
      </th>
      <td>{KIND_NAMES[request.kind]}</td>
      <td className="bo-nowrap">
        {formatDay(request.deadline, 'es', 'short')}
        {request.overdue && <span className="bo-badge bo-badge--rejected">Vencida</span>}
      </td>
      <td>{STATE_NAMES[request.state]}</td>
      <td className="bo-nowrap">{formatDateTime(request.created_at)}</td>
    </tr>
  );
}

/** /backoffice/privacy-requests (analysts and admins): the requests by legal deadline, the overdue first. */
export function PrivacyRequestsRoute() {
  useTitle('Solicitudes de privacidad');
  const [state, setState] = useState<'open' | 'all'>('open');
  const queue = useResource(`privacy:${state}`, () =>
    backofficeRequest(privacyQueueRoute, { query: { state } }).then((r) => r.data.items),
  );
  const items = queue.data ?? [];
  return (
    <section aria-labelledby="bo-privacy">
      <h1 id="bo-privacy">Solicitudes de privacidad</h1>
      <p className="bo-muted">
        Derechos de acceso, rectificación, cancelación y oposición. La fecha límite es el plazo legal en días hábiles.
      </p>
      <div className="bo-filters">
        <label htmlFor="bo-privacy-state">Mostrar</label>
        <select id="bo-privacy-state" value={state} onChange={(e) => setState(e.target.value as 'open' | 'all')}>
          <option value="open">Pendientes</option>
          <option value="all">Todas</option>
        </select>
      </div>
      <ErrorMessage error={queue.error} />
      {!queue.data && queue.loading && <Loading />}
      {queue.data && items.length === 0 && <p className="bo-muted">No hay solicitudes pendientes.</p>}
      {items.length > 0 && (
        <DataTable
          caption="Solicitudes por fecha límite"
          columns={['Folio', 'Derecho', 'Fecha límite', 'Estado', 'Recibida']}
        >
          {items.map((request) => (
            <RequestRow key={request.id} request={request} />
          ))}
        </DataTable>
      )}
    </section>
  );
}
