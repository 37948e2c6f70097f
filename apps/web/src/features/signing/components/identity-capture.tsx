import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind } from '@provee/domain';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ApiError } from '../../../shared/lib/api-client.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { heldPhotos, missingPhotos, photoSha256, putPhoto } from '../api/identity-photos.js';
import type { SignerRef } from '../api/signing.js';
import { s } from '../lib/copy.js';
import { PhotoQueue, type Hashes, type QueuedPhoto } from '../lib/photo-queue.js';
import { BlobImage } from './blob-image.js';
import { PhotoStep } from './photo-step.js';

interface IdentityCaptureProps {
  signer: SignerRef;
  token: string | null;
  /**
   * Starts the check with the three photos the server holds. Rejects only when the server lacks
   * some (PHOTOS_MISSING): they are sent again and the check asked once more.
   */
  onSubmit: (photos: Hashes) => Promise<void>;
  /** A photo refused for a reason that is not the photo (the link, the signer's state): the page says it. */
  onRefused: (error: ApiError) => void;
}

const KINDS = IDENTITY_DOCUMENT_KINDS;
/** Refusals of the photo itself (damaged, not an image, too large): shown under it, to be taken again. */
const isPhotoRefusal = (error: ApiError) => [400, 413, 415].includes(error.status);

/** What a photo's line says: sent, on its way (how much), waiting for the connection, or why it was refused. */
function statusOf(photo: QueuedPhoto): string {
  if (photo.status === 'sent') return s('capture.upload.sent');
  if (photo.status === 'waiting') return s('capture.upload.waiting');
  if (photo.status === 'refused')
    return photo.error && isPhotoRefusal(photo.error) ? photo.error.readableMessage : s('capture.upload.failed');
  return s('capture.upload.sending', { percent: Math.floor((100 * photo.sent) / Math.max(1, photo.total)) });
}

/** How much of the three photos is on the server, in percent (each a third, one on its way in part). */
function percentSent(photos: readonly QueuedPhoto[]): number {
  const done = photos.reduce(
    (sum, photo) => sum + (photo.status === 'sent' ? 1 : photo.sent / Math.max(1, photo.total)),
    0,
  );
  return Math.floor((100 * done) / KINDS.length);
}

/**
 * The built-in verification widget: the ID's front, its back and a selfie, in order, then 'Enviar
 * documentos'. Each photo goes up in the background as soon as it is accepted (issue 27), so by
 * the last one there is little left to send; the screen says how far each has got.
 */
export function IdentityCapture({ signer, token, onSubmit, onRefused }: IdentityCaptureProps) {
  const [queue] = useState(
    () =>
      new PhotoQueue({
        sha256: photoSha256,
        put: (photo, onProgress) => putPhoto(signer, photo, token, onProgress),
        held: () => heldPhotos(signer, token).then((held) => held.photos),
      }),
  );
  const photos = useSyncExternalStore(queue.subscribe, queue.snapshot);
  const [current, setCurrent] = useState<IdentityDocumentKind | 'review'>(KINDS[0]);
  const [moved, setMoved] = useState(false);
  const [busy, setBusy] = useState(false);
  const told = useRef(new WeakSet<ApiError>());

  useEffect(() => {
    queue.resume();
    return () => queue.dispose();
  }, [queue]);

  useEffect(() => {
    for (const photo of photos) {
      const { error } = photo;
      if (photo.status !== 'refused' || !error || isPhotoRefusal(error) || told.current.has(error)) continue;
      told.current.add(error);
      onRefused(error);
    }
  }, [photos, onRefused]);

  const accept = (kind: IdentityDocumentKind, photo: Blob) => {
    queue.put(kind, photo);
    const taken = new Set([...photos.map((queued) => queued.kind), kind]);
    setCurrent(KINDS.find((next) => !taken.has(next)) ?? 'review');
    setMoved(true);
  };

  const send = async () => {
    setBusy(true);
    try {
      for (let round = 0; round < 2; round++) {
        let hashes: Hashes;
        try {
          hashes = await queue.whenSent();
        } catch {
          return; // A refused photo: its line says why, and 'Cambiar' takes it again.
        }
        try {
          await onSubmit(hashes);
          return;
        } catch (error) {
          const missing = missingPhotos(error);
          if (!missing || round > 0) {
            uiState.showError(error);
            return;
          }
          queue.resend(missing);
        }
      }
    } finally {
      setBusy(false);
    }
  };

  const percent = percentSent(photos);
  const sentCount = photos.filter((photo) => photo.status === 'sent').length;

  return (
    <section className="capture" aria-labelledby="capture-title">
      <h2 id="capture-title" className="section-title">
        {s('capture.title')}
      </h2>
      {current === 'review' ? (
        <>
          <p className="page-subtitle">{s('capture.review')}</p>
          <ul className="capture-thumbs">
            {photos.map((photo) => {
              const label = s(`capture.${photo.kind}`);
              return (
                <li key={photo.kind}>
                  <BlobImage blob={photo.blob} alt={s('capture.preview', { label })} className="capture-thumb" />
                  <span className="capture-thumb-label">{label}</span>
                  <span className={`capture-thumb-status is-${photo.status}`}>{statusOf(photo)}</span>
                  <Button
                    variant="link"
                    className="capture-change"
                    aria-label={`${s('capture.change')}: ${label}`}
                    onClick={() => setCurrent(photo.kind)}
                    disabled={busy}
                  >
                    {s('capture.change')}
                  </Button>
                </li>
              );
            })}
          </ul>
          <Button onClick={() => void send()} disabled={busy}>
            {busy && sentCount < KINDS.length ? s('capture.sending', { percent }) : s('capture.send')}
          </Button>
        </>
      ) : (
        <>
          {!moved && <p className="page-subtitle">{s('capture.intro')}</p>}
          {photos.length > 0 && (
            <div className="upload-progress">
              <p role="status">{s('capture.upload.progress', { n: sentCount, total: KINDS.length })}</p>
              <span className="upload-bar" aria-hidden="true">
                <span style={{ width: `${percent}%` }} />
              </span>
            </div>
          )}
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
