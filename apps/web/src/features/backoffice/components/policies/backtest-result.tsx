import { policyRuleLabel, type BacktestView } from '@provee/domain';
import { Link } from 'react-router';
import { formatDay } from '../../../../shared/lib/format.js';
import { formatDateTime, formatInteger, formatPercent } from '../../lib/format.js';
import { outcomeName } from '../../lib/policy-labels.js';
import { DataTable } from '../data-table.js';
import { Facts } from '../detail/section.js';

type Result = NonNullable<BacktestView['result']>;
type Counts = Result['tested'];

const approval = (counts: Counts) =>
  `${formatPercent(counts.approval_rate)} (${formatInteger(counts.approved)} de ${formatInteger(counts.decisions)})`;

/** The day range as people read it: '1 may 2025 – 30 may 2025', one day alone when from = to. */
const range = (view: BacktestView) =>
  view.from === view.to
    ? `el ${formatDay(view.from, 'es', 'short')}`
    : `del ${formatDay(view.from, 'es', 'short')} al ${formatDay(view.to, 'es', 'short')}`;

function FlipsTable({ view, result }: { view: BacktestView; result: Result }) {
  const flipped = result.approved_to_rejected + result.rejected_to_approved;
  return (
    <>
      <h4 id="bo-backtest-flips">Solicitudes que cambian de resultado</h4>
      {flipped > result.flips.length && (
        <p className="bo-muted">
          Se muestran las primeras {formatInteger(result.flips.length)} de {formatInteger(flipped)}, por fecha.
        </p>
      )}
      <DataTable
        labelledBy="bo-backtest-flips"
        columns={['Solicitud', 'Decidida', `Vigente → ${view.policy_label}`, 'Reglas que la rechazan']}
      >
        {result.flips.map((flip) => (
          <tr key={flip.decision_id}>
            <th scope="row">
              <Link
                to={`/backoffice/applications/${flip.application_id}`}
                aria-label={`Solicitud ${flip.application_id}`}
              >
                {flip.application_id.slice(0, 8)}
              </Link>
            </th>
            <td className="bo-nowrap">{formatDateTime(flip.decided_at)}</td>
            <td className="bo-nowrap">
              {outcomeName(flip.live)} → {outcomeName(flip.tested)}
            </td>
            <td>{flip.reasons.length === 0 ? '—' : flip.reasons.map(policyRuleLabel).join(', ')}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

/** A finished backtest: approval under each version, what flips either way, the rules that refuse and the flipped applications. */
export function BacktestResult({ view }: { view: BacktestView }) {
  const result = view.result;
  if (!result) return null;
  const heading = `${formatInteger(result.tested.decisions)} ${result.tested.decisions === 1 ? 'decisión' : 'decisiones'} ${range(view)}${view.utm_source ? `, fuente «${view.utm_source}»` : ''}`;
  return (
    <section className="bo-subsection" aria-labelledby="bo-backtest-result">
      <h3 id="bo-backtest-result">Resultado: {heading}</h3>
      {result.skipped > 0 && (
        <p className="bo-muted">
          {formatInteger(result.skipped)}{' '}
          {result.skipped === 1 ? 'decisión del rango no se pudo' : 'decisiones del rango no se pudieron'} volver a
          juzgar: sus datos se borraron por el calendario de conservación o son de antes de un dato que la política lee.
          No cuentan en las cifras.
        </p>
      )}
      {result.tested.decisions === 0 ? (
        <p className="bo-muted">No hubo decisiones en ese rango.</p>
      ) : (
        <>
          <div className="bo-backtest-summary">
            <div>
              <h4>Tasa de aprobación</h4>
              <Facts
                className="bo-facts bo-backtest-facts"
                items={[
                  ['Como se decidió', approval(result.as_decided)],
                  [`Con la vigente (${view.live_label})`, approval(result.live)],
                  [`Con esta versión (${view.policy_label})`, approval(result.tested)],
                ]}
              />
            </div>
            <div>
              <h4>Cambian de resultado</h4>
              <Facts
                className="bo-facts bo-backtest-facts"
                items={[
                  ['Aprobadas → rechazadas', formatInteger(result.approved_to_rejected)],
                  ['Rechazadas → aprobadas', formatInteger(result.rejected_to_approved)],
                ]}
              />
            </div>
          </div>
          {result.reasons.length > 0 && (
            <DataTable
              caption="Rechazos por regla"
              showCaption
              narrow
              columns={['Regla', `Vigente (${view.live_label})`, `Esta versión (${view.policy_label})`]}
            >
              {result.reasons.map((reason) => (
                <tr key={reason.rule}>
                  <th scope="row">{policyRuleLabel(reason.rule)}</th>
                  <td className="bo-number">{formatInteger(reason.live)}</td>
                  <td className="bo-number">{formatInteger(reason.tested)}</td>
                </tr>
              ))}
            </DataTable>
          )}
          {result.flips.length > 0 ? (
            <FlipsTable view={view} result={result} />
          ) : (
            <p>Ninguna solicitud cambia de resultado.</p>
          )}
          <p className="bo-muted">Calculada en {formatInteger(result.duration_ms)} ms.</p>
        </>
      )}
    </section>
  );
}
