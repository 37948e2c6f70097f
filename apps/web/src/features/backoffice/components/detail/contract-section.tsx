import { actions, files } from '../../api.js';
import { formatDateTime } from '../../lib/format.js';
import { ActionButton } from '../actions.js';
import { StepUpLink } from '../step-up-link.js';
import { ContractCheckForm, ContractSealFacts } from './contract-seal.js';
import { Facts, Section, type SectionProps } from './section.js';

export function ContractSection({ detail, act, canAct }: SectionProps) {
  const { contract } = detail;
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
          {contract.seal && <ContractSealFacts seal={contract.seal} signedSha256={contract.signed_sha256} />}
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
          {contract.seal && detail.sensitive_visible && <ContractCheckForm detail={detail} />}
        </>
      ) : (
        <p className="bo-muted">Todavía no hay contrato.</p>
      )}
      {canAct && <SigningLinks detail={detail} act={act} />}
    </Section>
  );
}

/**
 * A new signing link for each party still to sign; one who signed is named with the date instead
 * (their link would only open the "already signed" screen).
 */
function SigningLinks({ detail, act }: Pick<SectionProps, 'detail' | 'act'>) {
  const signedAt = (avalId: string | null) =>
    detail.signers.find((signer) => signer.aval_id === avalId && signer.state === 'SIGNED')?.signed_at ?? null;
  const guarantors = detail.guarantors.filter((aval) => aval.status !== 'REPLACED');
  const parties = [
    { key: 'titular', name: 'El titular', to: 'al titular', avalId: null, body: { person_type: 'titular' as const } },
    ...guarantors.map((aval) => ({
      key: aval.id,
      name: aval.name ?? 'El aval',
      to: `a ${aval.name ?? 'el aval'}`,
      avalId: aval.id,
      body: { person_type: 'collateral' as const, aval_id: aval.id },
    })),
  ].map((party) => ({ ...party, signedAt: signedAt(party.avalId) }));
  const pending = parties.filter((party) => !party.signedAt);
  return (
    <div className="bo-subsection">
      <h3>Enlaces de firma</h3>
      <p className="bo-muted">
        {pending.length
          ? 'Envía por SMS un enlace nuevo para verificar identidad y firmar.'
          : 'Todas las partes firmaron: no hace falta enviar enlaces.'}
      </p>
      {parties.map(
        (party) =>
          party.signedAt && (
            <p key={party.key}>
              {party.name} firmó el {formatDateTime(party.signedAt)}
            </p>
          ),
      )}
      {pending.length > 0 && (
        <div className="bo-actions">
          {pending.map((party) => (
            <ActionButton
              key={party.key}
              label={`Enviar enlace de firma ${party.to}`}
              run={() =>
                act(() => actions.issueContractLink(detail.id, party.body), `Enlace de firma enviado ${party.to}`)
              }
            />
          ))}
        </div>
      )}
    </div>
  );
}
