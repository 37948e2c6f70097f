import type { PolicyShadowView } from '@provee/domain';
import { Link } from 'react-router';
import { formatDay } from '../../../../shared/lib/format.js';
import { formatInteger, formatPercent } from '../../lib/format.js';
import { shadowRun } from '../../policies-api.js';
import { DataTable } from '../data-table.js';
import { ConfirmButton } from './confirm-button.js';

/**
 * The shadow run: which published version judges the new applications beside the live one (never
 * acted on), and per day how often the two agreed. Admins stop it here.
 */
export function ShadowCard({
  view,
  canStop,
  act,
}: {
  view: PolicyShadowView;
  canStop: boolean;
  act: (run: () => Promise<unknown>, success: string) => Promise<void>;
}) {
  const { shadow, live, days } = view;
  return (
    <section className="bo-card" aria-labelledby="bo-policy-shadow">
      <h2 id="bo-policy-shadow">Versión en sombra</h2>
      {!shadow ? (
        <p className="bo-muted">
          Ninguna versión corre en sombra. Un borrador publicado en sombra juzga cada solicitud nueva junto a la
          vigente, sin efecto, y aquí se ve cuánto coinciden.
        </p>
      ) : (
        <>
          <p>
            <Link to={`/backoffice/policies/${shadow.id}`}>{shadow.label}</Link> corre en sombra junto a la vigente (
            {live.label}).
          </p>
          {days.length === 0 ? (
            <p className="bo-muted">Todavía no juzgó ninguna decisión.</p>
          ) : (
            <DataTable
              caption={`Coincidencia diaria de ${shadow.label} con ${live.label}`}
              showCaption
              narrow
              columns={['Día', 'Decisiones', 'Coinciden', 'Coincidencia']}
            >
              {days.map((day) => (
                <tr key={day.day}>
                  <th scope="row" className="bo-nowrap">
                    {formatDay(day.day, 'es', 'short')}
                  </th>
                  <td className="bo-number">{formatInteger(day.decisions)}</td>
                  <td className="bo-number">{formatInteger(day.agreed)}</td>
                  <td className="bo-number">{formatPercent(day.agreement_rate)}</td>
                </tr>
              ))}
            </DataTable>
          )}
          {canStop && (
            <div className="bo-actions">
              <ConfirmButton
                label="Dejar de correr en sombra"
                title={`¿Dejar de correr ${shadow.label} en sombra?`}
                confirm="Dejar de correr en sombra"
                tone="quiet"
                run={() => act(() => shadowRun.set(null), `${shadow.label} ya no corre en sombra`)}
              >
                <p>
                  Las solicitudes nuevas dejan de juzgarse con {shadow.label}. Lo que ya juzgó se conserva, y se puede
                  volver a publicar otra versión en sombra.
                </p>
              </ConfirmButton>
            </div>
          )}
        </>
      )}
    </section>
  );
}
