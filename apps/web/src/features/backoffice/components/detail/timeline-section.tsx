import type { ApplicationDetail, AuditChainView } from '@provee/domain';
import { formatEventTime, summarizePayload } from '../../lib/format.js';
import { chainName, chainReason } from '../../lib/labels.js';
import { DataTable } from '../data-table.js';
import { Section } from './section.js';

/** The audit trail, with whether its hash chain still verifies (a broken one was tampered with). */
export function TimelineSection({ detail }: { detail: ApplicationDetail }) {
  return (
    <Section wide id="bo-timeline" title="Historial">
      {detail.timeline.length === 0 && <p className="bo-muted">Sin eventos.</p>}
      {detail.timeline.map((chain) => (
        <Chain key={chain.chain} chain={chain} />
      ))}
    </Section>
  );
}

function Chain({ chain }: { chain: AuditChainView }) {
  const id = `bo-chain-${chain.chain}`;
  return (
    <div className="bo-subsection">
      <h3 id={id}>{chainName(chain.chain)}</h3>
      {chain.valid ? (
        <p className="bo-ok">Cadena de auditoría verificada ({chain.events.length} eventos)</p>
      ) : (
        <div className="bo-error" role="alert">
          <p>
            <strong>La cadena de auditoría no verifica: alterada en el evento {chain.broken_at}</strong>
          </p>
          {chain.reason && <p>Motivo: {chainReason(chain.reason)}.</p>}
        </div>
      )}
      {chain.events.length > 0 && (
        <DataTable labelledBy={id} columns={['Evento', 'Fecha y hora', 'Tipo', 'Actor', 'Detalle']}>
          {chain.events.map((event) => {
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
