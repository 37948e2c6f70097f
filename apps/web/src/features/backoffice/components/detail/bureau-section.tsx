import { actions } from '../../api.js';
import { formatDateTime, formatMoney } from '../../lib/format.js';
import { bureauStatusName, decisionResultName } from '../../lib/labels.js';
import { ActionButton } from '../actions.js';
import { DataTable } from '../data-table.js';
import { DatedRow, Facts, Section, type SectionProps } from './section.js';

const show = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** What the bureau answered and what the policy made of it, rule by rule. */
export function BureauSection({ detail, act, canAct }: SectionProps) {
  const unanswered = detail.bureau_queries.some((query) => query.status !== 'DONE');
  return (
    <Section wide id="bo-bureau" title="Buró y decisión">
      <h3>Consultas al buró</h3>
      {detail.bureau_queries.length === 0 ? (
        <p className="bo-muted">Sin consultas.</p>
      ) : (
        <DataTable columns={['Creada', 'Estado', 'Intentos', 'Último error', 'Reporte']}>
          {detail.bureau_queries.map((query) => (
            <DatedRow key={query.id} at={query.created_at}>
              <td>{bureauStatusName(query.status)}</td>
              <td>{query.attempts}</td>
              <td>{query.last_error ?? '—'}</td>
              <td>
                {query.report ? (
                  <details>
                    <summary>Ver reporte</summary>
                    <pre className="bo-pre">{JSON.stringify(query.report, null, 2)}</pre>
                  </details>
                ) : (
                  '—'
                )}
              </td>
            </DatedRow>
          ))}
        </DataTable>
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
            columns={['Regla', 'Valor', 'Umbral', 'Resultado']}
          >
            {decision.rules.map((rule) => (
              <tr key={rule.rule} className={rule.passed ? undefined : 'bo-row--failed'}>
                <th scope="row">{rule.rule}</th>
                <td>{show(rule.value)}</td>
                <td>{show(rule.threshold)}</td>
                <td>{rule.passed ? 'Cumple' : 'No cumple'}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      ))}
    </Section>
  );
}
