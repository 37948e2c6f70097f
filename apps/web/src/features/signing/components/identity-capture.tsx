import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind } from '@provee/domain';
import { useState } from 'react';
import { Button } from '../../../shared/ui/button.js';
import type { IdentityPhotos } from '../api/signing.js';
import { s } from '../lib/copy.js';
import { BlobImage } from './blob-image.js';
import { PhotoStep } from './photo-step.js';

interface IdentityCaptureProps {
  /** Sends the photos; the photos stay here whatever happens, so a refusal can be retried or retaken. */
  onSubmit: (photos: IdentityPhotos) => Promise<void>;
}

const KINDS = IDENTITY_DOCUMENT_KINDS;
const firstMissing = (photos: Partial<IdentityPhotos>) => KINDS.find((kind) => !photos[kind]);

/** The built-in verification widget: the ID's front, its back and a selfie, in order, then 'Enviar documentos'. */
export function IdentityCapture({ onSubmit }: IdentityCaptureProps) {
  const [photos, setPhotos] = useState<Partial<IdentityPhotos>>({});
  const [current, setCurrent] = useState<IdentityDocumentKind | 'review'>(KINDS[0]);
  const [moved, setMoved] = useState(false);
  const [busy, setBusy] = useState(false);

  const accept = (kind: IdentityDocumentKind, photo: Blob) => {
    const next = { ...photos, [kind]: photo };
    setPhotos(next);
    setCurrent(firstMissing(next) ?? 'review');
    setMoved(true);
  };

  const send = async () => {
    const { id_front, id_back, selfie } = photos;
    if (!id_front || !id_back || !selfie) return;
    setBusy(true);
    try {
      await onSubmit({ id_front, id_back, selfie });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="capture" aria-labelledby="capture-title">
      <h2 id="capture-title" className="section-title">
        {s('capture.title')}
      </h2>
      {current === 'review' ? (
        <>
          <p className="page-subtitle">{s('capture.review')}</p>
          <ul className="capture-thumbs">
            {KINDS.map((kind) => {
              const photo = photos[kind];
              const label = s(`capture.${kind}`);
              return (
                <li key={kind}>
                  {photo && <BlobImage blob={photo} alt={s('capture.preview', { label })} className="capture-thumb" />}
                  <span className="capture-thumb-label">{label}</span>
                  <Button
                    variant="link"
                    className="capture-change"
                    aria-label={`${s('capture.change')}: ${label}`}
                    onClick={() => setCurrent(kind)}
                    disabled={busy}
                  >
                    {s('capture.change')}
                  </Button>
                </li>
              );
            })}
          </ul>
          <Button onClick={() => void send()} disabled={busy}>
            {s('capture.send')}
          </Button>
        </>
      ) : (
        <>
          {!moved && <p className="page-subtitle">{s('capture.intro')}</p>}
          <PhotoStep
            key={current}
            kind={current}
            position={KINDS.indexOf(current) + 1}
            total={KINDS.length}
            takeFocus={moved}
            onAccept={(photo) => accept(current, photo)}
          />
        </>
      )}
    </section>
  );
}
