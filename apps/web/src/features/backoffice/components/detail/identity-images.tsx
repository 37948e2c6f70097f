import type { SignerView } from '@provee/domain';
import { useState } from 'react';
import { files } from '../../api.js';
import { documentKindName } from '../../lib/labels.js';
import { useSession } from '../../lib/staff-context.js';
import { stepUpFresh, useStepUp } from '../../lib/step-up.js';
import { StepUpLink } from '../step-up-link.js';

type Documents = SignerView['verifications'][number]['documents'];

/**
 * The identity photos (analysts and admins), each view audited by the API. They need a recent
 * second factor: when the last one is too old, a button asks for it before they load.
 */
export function IdentityImages({ applicationId, documents }: { applicationId: string; documents: Documents }) {
  const { session } = useSession();
  const ensure = useStepUp();
  const [shown, setShown] = useState(() => stepUpFresh(session));
  const [failed, setFailed] = useState(false);
  if (!shown)
    return (
      <p className="bo-actions">
        <span className="bo-muted">
          {documents.length} {documents.length === 1 ? 'imagen' : 'imágenes'}.
          {failed ? ' Confirma que eres tú para verlas de nuevo.' : ''}
        </span>
        <button
          type="button"
          className="bo-button bo-button--small bo-button--quiet"
          onClick={() =>
            void ensure().then((given) => {
              if (given) setShown(true);
            })
          }
        >
          Ver imágenes
        </button>
      </p>
    );
  return (
    <ul className="bo-documents">
      {documents.map((document) => {
        const url = files.identityDocument(applicationId, document.id);
        return (
          <li key={document.id}>
            <StepUpLink href={url} target="_blank" rel="noopener noreferrer">
              <img
                src={url}
                alt={documentKindName(document.kind)}
                loading="lazy"
                // Refused (the second factor grew old meanwhile): ask again instead of a broken image.
                onError={() => {
                  setFailed(true);
                  setShown(false);
                }}
              />
              <span>{documentKindName(document.kind)}</span>
            </StepUpLink>
          </li>
        );
      })}
    </ul>
  );
}
