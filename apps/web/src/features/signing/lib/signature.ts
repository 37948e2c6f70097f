/** The pure part of the signature: is it worth sending, and where is the ink (SPEC §5: trimmed to the drawn area). */

/** What signature_pad's toData() gives: strokes of points in CSS pixels. */
export interface Stroke {
  points: readonly { x: number; y: number }[];
}

/** Fewer points, or a smaller box (CSS px), is a tap or a scribble, not a signature. */
export const MIN_SIGNATURE_POINTS = 10;
export const MIN_SIGNATURE_BOX = { width: 40, height: 20 } as const;

/** True when the strokes are too few or too small to be a signature (an empty pad included). */
export function isTooSmall(strokes: readonly Stroke[]): boolean {
  const points = strokes.flatMap((stroke) => stroke.points);
  if (points.length < MIN_SIGNATURE_POINTS) return true;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const width = Math.max(...xs) - Math.min(...xs);
  const height = Math.max(...ys) - Math.min(...ys);
  return width < MIN_SIGNATURE_BOX.width || height < MIN_SIGNATURE_BOX.height;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ImageData's shape (RGBA, row by row), so the search runs without a canvas. */
export interface Pixels {
  width: number;
  height: number;
  data: ArrayLike<number>;
}

/**
 * The smallest box holding every pixel that is not fully transparent, grown by `margin` on each
 * side and kept inside the image; null when nothing was drawn.
 */
export function inkBox(image: Pixels, margin = 0): Box | null {
  const { width, height, data } = image;
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (data[(y * width + x) * 4 + 3] === 0) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      bottom = y;
    }
  }
  if (right < 0) return null;
  const x = Math.max(0, left - margin);
  const y = Math.max(0, top - margin);
  return {
    x,
    y,
    width: Math.min(width, right + margin + 1) - x,
    height: Math.min(height, bottom + margin + 1) - y,
  };
}
