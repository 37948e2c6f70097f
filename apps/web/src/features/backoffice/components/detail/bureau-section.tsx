import { actions } from '../../api.js';
import { formatDateTime, formatMoney } from '../../lib/format.js';
import { bureauStatusName, decisionResultName } from '../../lib/labels.js';
import { ActionButton } from '../actions.js';
import { Facts, Section, type SectionProps } from './section.js';

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
        <div className="bo-table-wrap">
          <table className="bo-table">
            <thead>
              <tr>
                <th scope="col">Creada</th>
                <th scope="col">Estado</th>
                <th scope="col">Intentos</th>
                <th scope="col">Último error</th>
                <th scope="col">Reporte</th>
              </tr>
            </thead>
            <tbody>
              {detail.bureau_queries.map((query) => (
                <tr key={query.id}>
                  <th scope="row" className="bo-nowrap">
                    {formatDateTime(query.created_at)}
                  </th>
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
          <table className="bo-table">
            <caption>Reglas de la decisión del {formatDateTime(decision.created_at)}</caption>
            <thead>
              <tr>
                <th scope="col">Regla</th>
                <th scope="col">Valor</th>
                <th scope="col">Umbral</th>
                <th scope="col">Resultado</th>
              </tr>
            </thead>
            <tbody>
              {decision.rules.map((rule) => (
                <tr key={rule.rule} className={rule.passed ? undefined : 'bo-row--failed'}>
                  <th scope="row">{rule.rule}</th>
                  <td>{show(rule.value)}</td>
                  <td>{show(rule.threshold)}</td>
                  <td>{rule.passed ? 'Cumple' : 'No cumple'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </Section>
  );
}
