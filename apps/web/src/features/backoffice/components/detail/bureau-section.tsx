import { lazy, Suspense, useState } from 'react';
import { actions } from '../../api.js';
import { formatDateTime, formatMoney } from '../../lib/format.js';
import { bureauStatusName, decisionResultName } from '../../lib/labels.js';
import { ActionButton } from '../actions.js';
import { DataTable } from '../data-table.js';
import { Loading } from '../messages.js';
import { BureauAlert, ReportFacts } from './bureau-report-facts.js';
import { DatedRow, Facts, Section, type SectionProps } from './section.js';

const BureauRawReport = lazy(() => import('./bureau-raw-report.js').then((m) => ({ default: m.BureauRawReport })));

const show = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** What the bureau answered and what the policy made of it, rule by rule. */
export function BureauSection({ detail, act, canAct }: SectionProps) {
  const unanswered = detail.bureau_queries.some((query) => query.status !== 'DONE');
  return (
    <Section wide id="bo-bureau" title="Buró y decisión">
      <h3>Consultas al buró</h3>
      {detail.bureau_queries.map((query) => (
        <BureauAlert key={query.id} query={query} />
      ))}
      {detail.bureau_queries.length === 0 ? (
        <p className="bo-muted">Sin consultas.</p>
      ) : (
        <DataTable columns={['Creada', 'Buró', 'Estado', 'Intentos', 'Último error']}>
          {detail.bureau_queries.map((query) => (
            <DatedRow key={query.id} at={query.created_at}>
              <td>{query.provider ?? '—'}</td>
              <td>{bureauStatusName(query.status)}</td>
              <td>{query.attempts}</td>
              <td>{query.last_error ?? '—'}</td>
            </DatedRow>
          ))}
        </DataTable>
      )}
      {detail.bureau_queries.map(
        (query) =>
          query.report && (
            <div key={query.id} className="bo-subsection">
              <h4>Reporte del {formatDateTime(query.created_at)}</h4>
              <ReportFacts report={query.report} />
              {query.raw_report && <RawReport applicationId={detail.id} queryId={query.id} />}
            </div>
          ),
      )}
      {canAct && unanswered && (
        <ActionButton
          label="Reintentar consulta al buró"
          run={() => act(() => actions.retryBureau(detail.id), 'Consulta al buró reprogramada')}
        />
      )}

      <h3>Decisiones</h3>
      {detail.decisions.length === 0 && <p className="bo-muted">Sin decisiones.</p>}
      {detail.decisions.map((decision) => (
        <div key={decision.id} className="bo-subsection">
          <Facts
            items={[
              ['Fecha', formatDateTime(decision.created_at)],
              ['Resultado', decisionResultName(decision.result)],
              ['Monto', formatMoney(decision.amount, decision.currency)],
              ['Política', decision.policy_version],
              ['Persona', decision.aval_id ? 'Aval' : 'Titular'],
            ]}
          />
          <DataTable
            unwrapped
            showCaption
            caption={`Reglas de la decisión del ${formatDateTime(decision.created_at)}`}
            columns={['Regla', 'Valor', 'Umbral', 'Resultado', 'Motivo']}
          >
            {decision.rules.map((rule) => (
              <tr key={rule.rule} className={rule.passed ? undefined : 'bo-row--failed'}>
                <th scope="row">{rule.rule}</th>
                <td>{show(rule.value)}</td>
                <td>{show(rule.threshold)}</td>
                <td>{rule.passed ? 'Cumple' : 'No cumple'}</td>
                <td>{rule.reason ?? '—'}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      ))}
    </Section>
  );
}

/** The bureau's answer as received, for analysts: loaded (and recorded by the API) only when asked for. */
function RawReport({ applicationId, queryId }: { applicationId: string; queryId: string }) {
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <button type="button" className="bo-button bo-button--small bo-button--quiet" onClick={() => setOpen(true)}>
        Ver reporte completo
      </button>
    );
  return (
    <Suspense fallback={<Loading what="Cargando reporte…" />}>
      <BureauRawReport applicationId={applicationId} queryId={queryId} />
    </Suspense>
  );
}
