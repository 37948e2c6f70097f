import { applicationTimelineRoute, type ApplicationDetail, type AuditChainView } from '@provee/domain';
import { useState } from 'react';
import { backofficeRequest } from '../../api.js';
import { formatEventTime, summarizePayload } from '../../lib/format.js';
import { chainName, chainReason } from '../../lib/labels.js';
import { useSubmit } from '../../lib/use-submit.js';
import { DataTable } from '../data-table.js';
import { ErrorMessage } from '../messages.js';
import { Section } from './section.js';

type AuditEventView = AuditChainView['events'][number];
const count = new Intl.NumberFormat('es-DO');
const eventCount = (n: number) => `${count.format(n)} ${n === 1 ? 'evento' : 'eventos'}`;

/**
 * The audit trail, with whether its hash chain still verifies (a broken one was tampered with).
 * The detail brings each chain's newest events; older ones load a page at a time (issue 35).
 */
export function TimelineSection({ detail }: { detail: ApplicationDetail }) {
  return (
    <Section wide id="bo-timeline" title="Historial">
      {detail.timeline.length === 0 && <p className="bo-muted">Sin eventos.</p>}
      {detail.timeline.map((chain) => (
        // A new answer of the detail (after an action) starts the chain again from its newest events.
        <Chain key={`${chain.chain}:${chain.events.at(-1)?.id ?? 0}`} applicationId={detail.id} chain={chain} />
      ))}
    </Section>
  );
}

function Chain({ applicationId, chain }: { applicationId: string; chain: AuditChainView }) {
  const id = `bo-chain-${chain.chain}`;
  const [older, setOlder] = useState<AuditEventView[]>([]);
  const [cursor, setCursor] = useState(chain.older_cursor);
  const { pending, error, submit } = useSubmit();
  const events = [...older, ...chain.events];
  // The call is this section's own (not in api.ts): it loads with the detail, not the back office's first screen.
  const loadOlder = (before: number) =>
    submit(async () => {
      const { data } = await backofficeRequest(applicationTimelineRoute, {
        params: { applicationId },
        query: { chain: chain.chain, before },
      });
      setOlder((shown) => [...data.events, ...shown]);
      setCursor(data.older_cursor);
    });
  return (
    <div className="bo-subsection">
      <h3 id={id}>{chainName(chain.chain)}</h3>
      {chain.valid ? (
        <p className="bo-ok">Cadena de auditoría verificada ({eventCount(chain.total)})</p>
      ) : (
        <div className="bo-error" role="alert">
          <p>
            <strong>La cadena de auditoría no verifica: alterada en el evento {chain.broken_at}</strong>
          </p>
          {chain.reason && <p>Motivo: {chainReason(chain.reason)}.</p>}
        </div>
      )}
      {cursor !== null && (
        <div className="bo-actions">
          <span className="bo-muted">
            Se muestran los {count.format(events.length)} eventos más recientes de {count.format(chain.total)}.
          </span>
          <button
            type="button"
            className="bo-button bo-button--small bo-button--quiet"
            disabled={pending}
            onClick={() => void loadOlder(cursor)}
          >
            Ver eventos anteriores
          </button>
        </div>
      )}
      <ErrorMessage error={error} />
      {events.length > 0 && (
        <DataTable labelledBy={id} columns={['Evento', 'Fecha y hora', 'Tipo', 'Actor', 'Detalle']}>
          {events.map((event) => {
            const broken = !chain.valid && event.id === chain.broken_at;
            return (
              <tr key={event.id} className={broken ? 'bo-row--broken' : undefined}>
                <th scope="row">
                  {event.id}
                  {broken && <span className="bo-badge bo-badge--rejected">Alterado</span>}
                </th>
                <td className="bo-nowrap">
                  <time dateTime={event.at}>{formatEventTime(event.at)}</time>
                </td>
                <td>
                  <code>{event.type}</code>
                </td>
                <td title={event.actor}>{event.actor_name}</td>
                <td className="bo-payload">{summarizePayload(event.payload)}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </div>
  );
}
