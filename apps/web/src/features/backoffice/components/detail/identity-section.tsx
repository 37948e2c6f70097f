import { EXTRA_ATTEMPTS_MAX, type SignerView } from '@provee/domain';
import { actions } from '../../api.js';
import { formatDateTime } from '../../lib/format.js';
import { personTypeName, signerStateName, verificationStatusName, verificationTypeName } from '../../lib/labels.js';
import { NoteForm } from '../actions.js';
import { IdentityImages } from './identity-images.js';
import { Facts, Section, type SectionProps } from './section.js';

interface Props extends SectionProps {
  /** Analysts and admins: the identity images open (the API refuses them to advisors anyway). */
  canSeeImages: boolean;
}

/** Each signer's identity checks, the photos, and the decisions a person at the lender takes. */
export function IdentitySection({ detail, act, canAct, canSeeImages }: Props) {
  return (
    <Section wide id="bo-identity" title="Verificación de identidad">
      {detail.signers.length === 0 && <p className="bo-muted">Nadie ha empezado la verificación.</p>}
      {detail.signers.map((signer) => (
        <div key={signer.id} className="bo-subsection">
          <h3>
            {signer.name} · {personTypeName(signer.person_type)}
          </h3>
          <Facts
            items={[
              ['Estado', signerStateName(signer.state)],
              ['Intentos usados', signer.attempts_used],
              ['Intentos restantes', signer.attempts_left],
              ['Firmó', signer.signed_at ? formatDateTime(signer.signed_at) : 'Todavía no'],
            ]}
          />
          {signer.verifications.map((verification) => (
            <article
              key={verification.id}
              className="bo-verification"
              aria-label={`Verificación del ${formatDateTime(verification.created_at)}`}
            >
              <Facts
                items={[
                  [
                    'Verificación',
                    `${verificationTypeName(verification.verification_type)} · ${verification.provider}`,
                  ],
                  ['Enviada', formatDateTime(verification.created_at)],
                  [
                    'Estado',
                    <span key="s" className={`bo-badge bo-badge--${verification.status.toLowerCase()}`}>
                      {verificationStatusName(verification.status)}
                    </span>,
                  ],
                  ['Respondida', verification.answered_at ? formatDateTime(verification.answered_at) : null],
                  ['Respondió', verification.answered_by],
                  ['Nota', verification.note],
                ]}
              />
              <Documents applicationId={detail.id} documents={verification.documents} visible={canSeeImages} />
              {canAct && verification.status === 'UNDER_REVIEW' && (
                <NoteForm
                  id={`bo-review-${verification.id}`}
                  hint="El verificador pidió que una persona revise. La nota queda en el expediente."
                  buttons={(['APPROVED', 'REJECTED'] as const).map((status) => ({
                    label: status === 'APPROVED' ? 'Aprobar' : 'Rechazar',
                    name: status === 'APPROVED' ? 'Aprobar verificación' : 'Rechazar verificación',
                    run: (note) =>
                      act(
                        () => actions.decideVerification(detail.id, verification.id, { status, note }),
                        'Decisión registrada',
                      ),
                  }))}
                />
              )}
            </article>
          ))}
          {canAct && needsExtraAttempt(signer) && (
            <div className="bo-subsection">
              <h4>Sin intentos de verificación</h4>
              <p className="bo-muted">
                Intentos adicionales dados: {signer.extra_attempts} de {EXTRA_ATTEMPTS_MAX}.
              </p>
              <NoteForm
                id={`bo-attempt-${signer.id}`}
                buttons={[
                  {
                    label: 'Dar un intento extra',
                    name: `Dar un intento extra a ${signer.name}`,
                    run: (note) =>
                      act(() => actions.extraAttempt(detail.id, signer.id, { note }), 'Intento extra concedido'),
                  },
                ]}
              />
            </div>
          )}
        </div>
      ))}
    </Section>
  );
}

/** The API's own rule (issue 26): none left, not signed, approved or in review, and fewer than the most extra attempts. */
const needsExtraAttempt = (signer: SignerView) =>
  signer.attempts_left <= 0 &&
  signer.extra_attempts < EXTRA_ATTEMPTS_MAX &&
  !['SIGNED', 'VERIFIED', 'UNDER_REVIEW'].includes(signer.state);

function Documents({
  applicationId,
  documents,
  visible,
}: {
  applicationId: string;
  documents: SignerView['verifications'][number]['documents'];
  visible: boolean;
}) {
  if (documents.length === 0) return null;
  if (!visible)
    return (
      <p className="bo-muted">
        {documents.length} {documents.length === 1 ? 'imagen' : 'imágenes'}. Solo analistas pueden ver las imágenes.
      </p>
    );
  return <IdentityImages applicationId={applicationId} documents={documents} />;
}
