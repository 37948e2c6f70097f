import { SIGNATURE_CANVAS, SIGNATURE_PEN_MIN_WIDTH } from '@provee/domain';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import SignaturePad, { type PointGroup } from 'signature_pad';
import { trimmedSignaturePng } from '../lib/signature-image.js';
import type { Stroke } from '../lib/signature.js';

const MAX_PIXEL_RATIO = 3;
/** signature_pad's own distance between recorded points (CSS px at full size). */
const MIN_DISTANCE = 5;

export interface SignatureBoxHandle {
  clear: () => void;
  /** The strokes drawn so far, in the SPEC's units (the box's CSS px at full size). */
  strokes: () => Stroke[];
  /** The drawn area as a base64 PNG without the data-URL prefix. */
  png: () => string;
}

/** The strokes as drawn at one display scale, redrawn at another (a phone turned with a signature on it). */
function rescale(groups: PointGroup[], factor: number): PointGroup[] {
  return groups.map((group) => ({
    ...group,
    minWidth: group.minWidth * factor,
    maxWidth: group.maxWidth * factor,
    dotSize: group.dotSize * factor,
    points: group.points.map((point) => ({ ...point, x: point.x * factor, y: point.y * factor })),
  }));
}

/**
 * The handwritten signature (SPEC §9: 300×470, black pen, minimum width 3). The drawing is always
 * the SPEC's box: `scale` only says how large it is shown (issue 27: smaller on a small or turned
 * phone, so 'Guardar firma' stays on screen). The canvas holds 300×470 units at up to 3 device
 * pixels each whatever its size on screen, and the pen is 3 units wide, so the signature sent has
 * the same size, proportions and stroke on every phone with the same pixel density.
 */
export function SignatureBox({
  ref,
  label,
  onBegin,
  scale = 1,
}: {
  ref: Ref<SignatureBoxHandle>;
  label: string;
  /** A new stroke starts (the screen hides its 'too small' message). */
  onBegin?: () => void;
  /** CSS pixels per unit of the SPEC's box (at most 1). */
  scale?: number;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const onBeginRef = useRef(onBegin);
  useEffect(() => {
    onBeginRef.current = onBegin;
  }, [onBegin]);
  const padRef = useRef<SignaturePad | null>(null);
  const ratioRef = useRef(1);
  const scaleRef = useRef(scale);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // At most 3 device pixels per unit: the API takes signatures up to 2000 px (470 × 3 = 1410).
    const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), MAX_PIXEL_RATIO);
    ratioRef.current = ratio;
    canvas.width = SIGNATURE_CANVAS.width * ratio;
    canvas.height = SIGNATURE_CANVAS.height * ratio;
    const pad = new SignaturePad(canvas, { penColor: 'black' });
    padRef.current = pad;
    const begin = () => onBeginRef.current?.();
    pad.addEventListener('beginStroke', begin);
    return () => {
      pad.removeEventListener('beginStroke', begin);
      pad.off();
      padRef.current = null;
    };
  }, []);

  // The pen and the drawing follow the size shown: a point at x CSS px is x / scale units.
  useEffect(() => {
    const canvas = canvasRef.current;
    const pad = padRef.current;
    if (!canvas || !pad) return;
    const drawn = pad.toData();
    const factor = scale / scaleRef.current;
    scaleRef.current = scale;
    const ratio = ratioRef.current;
    canvas.getContext('2d')?.setTransform(ratio / scale, 0, 0, ratio / scale, 0, 0);
    pad.minWidth = SIGNATURE_PEN_MIN_WIDTH * scale;
    // The library's default maximum (2.5) is below this minimum: give the pen room to vary.
    pad.maxWidth = SIGNATURE_PEN_MIN_WIDTH * 1.5 * scale;
    pad.minDistance = MIN_DISTANCE * scale;
    if (drawn.length > 0 && factor !== 1) pad.fromData(rescale(drawn, factor));
  }, [scale]);

  useImperativeHandle(
    ref,
    () => ({
      clear: () => padRef.current?.clear(),
      strokes: () =>
        (padRef.current?.toData() ?? []).map((group) => ({
          points: group.points.map((point) => ({ x: point.x / scaleRef.current, y: point.y / scaleRef.current })),
        })),
      png: () => {
        const canvas = canvasRef.current;
        if (!canvas) throw new Error('no signature canvas');
        return trimmedSignaturePng(canvas, ratioRef.current);
      },
    }),
    [],
  );

  return (
    <canvas
      ref={canvasRef}
      className="signature-canvas"
      role="img"
      aria-label={label}
      style={{ width: `${SIGNATURE_CANVAS.width * scale}px`, height: `${SIGNATURE_CANVAS.height * scale}px` }}
    />
  );
}
