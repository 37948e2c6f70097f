import { afterEach, describe, expect, it, vi } from 'vitest';
import { trimmedSignaturePng } from './signature-image.js';

/** A drawn canvas as signature_pad leaves it: transparent, with ink at (x, y). */
function drawnCanvas(width: number, height: number, ink: [number, number][]) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (const [x, y] of ink) data[(y * width + x) * 4 + 3] = 255;
  const context = { getImageData: vi.fn(() => ({ width, height, data })) };
  return { width, height, getContext: () => context } as unknown as HTMLCanvasElement;
}

describe('trimmedSignaturePng (SPEC §3: base64 PNG of the drawn area, without the prefix)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('crops the canvas to the ink plus a margin scaled to the pixel ratio, and drops the data-URL prefix', () => {
    const drawImage = vi.fn();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage,
    } as unknown as CanvasRenderingContext2D);
    const toDataURL = vi
      .spyOn(HTMLCanvasElement.prototype, 'toDataURL')
      .mockReturnValue('data:image/png;base64,iVBORw0KGgo=');
    const source = drawnCanvas(600, 940, [
      [100, 200],
      [300, 260],
    ]);

    expect(trimmedSignaturePng(source, 2)).toBe('iVBORw0KGgo=');
    // 4 CSS px of margin at ratio 2: 8 device px on each side.
    expect(drawImage).toHaveBeenCalledWith(source, 92, 192, 217, 77, 0, 0, 217, 77);
    expect(toDataURL).toHaveBeenCalledWith('image/png');
  });
});
