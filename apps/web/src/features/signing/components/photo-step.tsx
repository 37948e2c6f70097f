import type { IdentityDocumentKind } from '@provee/domain';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '../../../shared/ui/button.js';
import { s } from '../lib/copy.js';
import { CAMERA_SIZE, CameraNotReadyError, photoFromFile, photoFromVideo } from '../lib/photo.js';
import { BlobImage } from './blob-image.js';

interface PhotoStepProps {
  kind: IdentityDocumentKind;
  /** 1-based position and count, for 'Foto n de 3'. */
  position: number;
  total: number;
  onAccept: (photo: Blob) => void;
  /** Move focus to the step's heading on arrival (a step after the first: the screen reader follows). */
  takeFocus?: boolean;
}

const hasCamera = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
const stop = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());

/**
 * One photo of the built-in verification: the live camera (back camera for the ID, front for the
 * selfie) and 'Tomar foto', or the phone's own picker when the browser gives no camera; then a
 * preview with 'Repetir' / 'Usar foto'. The camera is on only while it is shown.
 */
export function PhotoStep({ kind, position, total, onAccept, takeFocus = false }: PhotoStepProps) {
  const facing = kind === 'selfie' ? 'user' : 'environment';
  const label = s(`capture.${kind}`);
  const [source, setSource] = useState<'camera' | 'file'>(() => (hasCamera() ? 'camera' : 'file'));
  const [cameraRefused, setCameraRefused] = useState(false);
  const [photo, setPhoto] = useState<Blob | null>(null);
  const [message, setMessage] = useState('');
  const videoRef = useRef<HTMLVideoElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const showCamera = source === 'camera' && photo === null;
  const frame = kind === 'selfie' ? 'capture-frame is-selfie' : 'capture-frame';

  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);

  useEffect(() => {
    if (!showCamera) return;
    let live = true;
    let stream: MediaStream | null = null;
    // Any failure (refused, no camera, an insecure page without the API) means the file picker.
    Promise.resolve()
      .then(() => navigator.mediaDevices.getUserMedia({ video: { facingMode: facing, ...CAMERA_SIZE }, audio: false }))
      .then(
        (opened) => {
          if (!live) {
            stop(opened);
            return;
          }
          stream = opened;
          const video = videoRef.current;
          if (!video) return;
          video.srcObject = opened;
          video.play().catch(() => {
            // A refused autoplay leaves the preview still; the photo is taken from the stream anyway.
          });
        },
        () => {
          if (!live) return;
          setCameraRefused(true);
          setSource('file');
        },
      );
    return () => {
      live = false;
      if (stream) stop(stream);
    };
  }, [showCamera, facing]);

  const take = async () => {
    const video = videoRef.current;
    if (!video) return;
    try {
      setPhoto(await photoFromVideo(video));
      setMessage('');
    } catch (error) {
      setMessage(s(error instanceof CameraNotReadyError ? 'capture.notReady' : 'capture.failed'));
    }
  };

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared, so choosing the same file again still counts as a change.
    input.value = '';
    if (!file) return;
    setPhoto(await photoFromFile(file));
    setMessage('');
  };

  return (
    <div className="capture-step">
      <p className="capture-count">{s('capture.step', { n: position, total })}</p>
      <h3 ref={headingRef} className="capture-title" tabIndex={-1}>
        {label}
      </h3>
      <p className="page-subtitle">{s(`capture.hint.${kind}`)}</p>
      {photo ? (
        <>
          <BlobImage blob={photo} alt={s('capture.preview', { label })} className={frame} />
          <div className="capture-actions">
            <Button variant="secondary" onClick={() => setPhoto(null)}>
              {s('capture.retake')}
            </Button>
            <Button onClick={() => onAccept(photo)}>{s('capture.use')}</Button>
          </div>
        </>
      ) : source === 'camera' ? (
        <>
          <video
            ref={videoRef}
            className={kind === 'selfie' ? `${frame} is-mirrored` : frame}
            autoPlay
            playsInline
            muted
            aria-label={s('capture.camera', { label })}
          />
          <Button onClick={() => void take()}>{s('capture.take')}</Button>
        </>
      ) : (
        <>
          {cameraRefused && <p className="notice">{s('capture.noCamera')}</p>}
          <label className="btn btn-primary capture-file">
            <input
              type="file"
              accept="image/*"
              capture={facing}
              className="visually-hidden"
              onChange={(event) => void pick(event)}
            />
            {s('capture.file')}
          </label>
        </>
      )}
      {message && (
        <p className="field-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
