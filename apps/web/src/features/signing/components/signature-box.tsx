import { SIGNATURE_CANVAS, SIGNATURE_PEN_MIN_WIDTH } from '@provee/domain';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import SignaturePad from 'signature_pad';
import { trimmedSignaturePng } from '../lib/signature-image.js';
import type { Stroke } from '../lib/signature.js';

const MAX_PIXEL_RATIO = 3;

export interface SignatureBoxHandle {
  clear: () => void;
  /** The strokes drawn so far (CSS px). */
  strokes: () => Stroke[];
  /** The drawn area as a base64 PNG without the data-URL prefix. */
  png: () => string;
}

/**
 * The handwritten signature (SPEC §9: 300×470, black pen, minimum width 3). The canvas holds
 * devicePixelRatio pixels per CSS pixel, so the line stays sharp on a phone's screen.
 */
export function SignatureBox({
  ref,
  label,
  onBegin,
}: {
  ref: Ref<SignatureBoxHandle>;
  label: string;
  /** A new stroke starts (the screen hides its 'too small' message). */
  onBegin?: () => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const onBeginRef = useRef(onBegin);
  useEffect(() => {
    onBeginRef.current = onBegin;
  }, [onBegin]);
  const padRef = useRef<SignaturePad | null>(null);
  const ratioRef = useRef(1);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // At most 3 device pixels per CSS pixel: the API takes signatures up to 2000 px (470 × 3 = 1410).
    const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), MAX_PIXEL_RATIO);
    ratioRef.current = ratio;
    canvas.width = SIGNATURE_CANVAS.width * ratio;
    canvas.height = SIGNATURE_CANVAS.height * ratio;
    canvas.getContext('2d')?.scale(ratio, ratio);
    const pad = new SignaturePad(canvas, {
      penColor: 'black',
      minWidth: SIGNATURE_PEN_MIN_WIDTH,
      // The library's default maximum (2.5) is below this minimum: give the pen room to vary.
      maxWidth: SIGNATURE_PEN_MIN_WIDTH * 1.5,
    });
    padRef.current = pad;
    const begin = () => onBeginRef.current?.();
    pad.addEventListener('beginStroke', begin);
    return () => {
      pad.removeEventListener('beginStroke', begin);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      clear: () => padRef.current?.clear(),
      strokes: () => padRef.current?.toData() ?? [],
      png: () => {
        const canvas = canvasRef.current;
        if (!canvas) throw new Error('no signature canvas');
        return trimmedSignaturePng(canvas, ratioRef.current);
      },
    }),
    [],
  );

  return <canvas ref={canvasRef} className="signature-canvas" role="img" aria-label={label} />;
}
