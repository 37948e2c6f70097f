import { inkBox } from './signature.js';

/** Room left around the ink (CSS px; scaled to the canvas's device pixels). */
const MARGIN_CSS_PX = 4;
const PNG_PREFIX = /^data:image\/png;base64,/;

/**
 * The signature as the API takes it (SPEC §3): a PNG of the drawn area only, base64 without the
 * data-URL prefix. The canvas is searched at its own (device) resolution, so nothing is lost.
 */
export function trimmedSignaturePng(canvas: HTMLCanvasElement, pixelRatio = 1): string {
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas 2d unavailable');
  const box = inkBox(
    context.getImageData(0, 0, canvas.width, canvas.height),
    Math.ceil(MARGIN_CSS_PX * pixelRatio),
  ) ?? {
    x: 0,
    y: 0,
    width: canvas.width,
    height: canvas.height,
  };
  const trimmed = document.createElement('canvas');
  trimmed.width = box.width;
  trimmed.height = box.height;
  trimmed.getContext('2d')?.drawImage(canvas, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
  return trimmed.toDataURL('image/png').replace(PNG_PREFIX, '');
}
