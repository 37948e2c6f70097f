import { actions, files } from '../../api.js';
import { formatDateTime } from '../../lib/format.js';
import { ActionButton } from '../actions.js';
import { StepUpLink } from '../step-up-link.js';
import { Facts, Section, type SectionProps } from './section.js';

export function ContractSection({ detail, act, canAct }: SectionProps) {
  const { contract } = detail;
  const guarantors = detail.guarantors.filter((aval) => aval.status !== 'REPLACED');
  return (
    <Section id="bo-contract" title="Contrato">
      {contract ? (
        <>
          <Facts
            items={[
              ['Plantilla', contract.template_version],
              ['Generado', formatDateTime(contract.created_at)],
              ['Huella sin firmas (SHA-256)', <code className="bo-hash">{contract.unsigned_sha256}</code>],
              [
                'Huella firmado (SHA-256)',
                contract.signed_sha256 ? <code className="bo-hash">{contract.signed_sha256}</code> : 'Sin firmar',
              ],
            ]}
          />
          {detail.sensitive_visible ? (
            <p className="bo-actions">
              <StepUpLink href={files.contract(detail.id)} target="_blank" rel="noopener noreferrer">
                Ver contrato (PDF)
              </StepUpLink>
              <StepUpLink href={files.contractEvidence(detail.id)} target="_blank" rel="noopener noreferrer">
                Ver evidencia de firma (JSON)
              </StepUpLink>
            </p>
          ) : (
            <p className="bo-muted">Solo analistas pueden abrir el contrato y su evidencia.</p>
          )}
        </>
      ) : (
        <p className="bo-muted">Todavía no hay contrato.</p>
      )}
      {canAct && (
        <div className="bo-subsection">
          <h3>Enlaces de firma</h3>
          <p className="bo-muted">Envía por SMS un enlace nuevo para verificar identidad y firmar.</p>
          <div className="bo-actions">
            <ActionButton
              label="Enviar enlace de firma al titular"
              run={() =>
                act(
                  () => actions.issueContractLink(detail.id, { person_type: 'titular' }),
                  'Enlace de firma enviado al titular',
                )
              }
            />
            {guarantors.map((aval) => (
              <ActionButton
                key={aval.id}
                label={`Enviar enlace de firma a ${aval.name ?? 'el aval'}`}
                run={() =>
                  act(
                    () => actions.issueContractLink(detail.id, { person_type: 'collateral', aval_id: aval.id }),
                    `Enlace de firma enviado a ${aval.name ?? 'el aval'}`,
                  )
                }
              />
            ))}
          </div>
        </div>
      )}
    </Section>
  );
}
