import type { PolicyDetailView } from '@provee/domain';
import { policies } from '../../policies-api.js';
import { ConfirmButton } from './confirm-button.js';

type Act = (run: () => Promise<unknown>, success: string) => Promise<void>;

/**
 * Who decides with this version. A draft: an admin who did not write it publishes it (live, or in
 * shadow beside the live one), at the revision on screen; anyone else reads why they may not. A
 * published version that is not live: an admin makes it live again in one step (a rollback).
 */
export function PublishCard({
  detail,
  liveNumber,
  act,
}: {
  detail: PolicyDetailView;
  /** The live version's number (a lower one going live is a rollback). */
  liveNumber: number | undefined;
  act: Act;
}) {
  const { id, label, revision } = detail;
  const draftRefused = detail.status === 'DRAFT' && !detail.may_publish && detail.publish_refusal;
  if (!detail.may_publish && !draftRefused && !detail.may_activate) return null;
  const rollback = liveNumber !== undefined && detail.number < liveNumber;
  const activateLabel = rollback ? 'Volver a esta versión' : 'Hacer vigente';
  return (
    <section className="bo-card" aria-labelledby="bo-policy-publish">
      <h2 id="bo-policy-publish">Publicación</h2>
      {detail.may_publish && (
        <>
          <p>
            Publicada como vigente, decide cada solicitud nueva desde ese momento. En sombra, juzga las mismas
            solicitudes junto a la vigente, sin efecto, y ves cada día cuánto coinciden.
          </p>
          <div className="bo-actions">
            <ConfirmButton
              label="Publicar como vigente"
              title={`¿Publicar ${label} como vigente?`}
              run={() => act(() => policies.publish(id, { revision, mode: 'live' }), `${label} publicada como vigente`)}
            >
              <p>
                Desde ahora decide cada solicitud nueva en lugar de {detail.live_label}. Si algo sale mal, la versión
                anterior vuelve con un clic.
              </p>
            </ConfirmButton>
            <ConfirmButton
              label="Publicar en sombra"
              title={`¿Publicar ${label} en sombra?`}
              tone="quiet"
              run={() => act(() => policies.publish(id, { revision, mode: 'shadow' }), `${label} publicada en sombra`)}
            >
              <p>
                Juzga cada solicitud nueva junto a {detail.live_label}, que sigue decidiendo. Si otra versión corría en
                sombra, esta la reemplaza.
              </p>
            </ConfirmButton>
          </div>
        </>
      )}
      {draftRefused && <p className="bo-policy-notice">{detail.publish_refusal}</p>}
      {detail.may_activate && (
        <div className="bo-actions">
          <ConfirmButton
            label={activateLabel}
            title={`¿Hacer vigente ${label}?`}
            confirm={activateLabel}
            run={() => act(() => policies.activate(id), `${label} es la versión vigente`)}
          >
            <p>
              Desde ahora {label} decide cada solicitud nueva en lugar de {detail.live_label}. Ya fue revisada y
              publicada, así que no necesita otra aprobación.
            </p>
          </ConfirmButton>
        </div>
      )}
    </section>
  );
}
