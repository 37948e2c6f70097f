import { describe, expect, it } from 'vitest';
import { inkBox, isTooSmall, type Pixels, type Stroke } from './signature.js';

/** A transparent width×height image with the given pixels opaque. */
function image(width: number, height: number, ink: [number, number][] = []): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (const [x, y] of ink) data[(y * width + x) * 4 + 3] = 255;
  return { width, height, data };
}

const line = (count: number, from: [number, number], to: [number, number]): Stroke => ({
  points: Array.from({ length: count }, (_, i) => ({
    x: from[0] + ((to[0] - from[0]) * i) / Math.max(1, count - 1),
    y: from[1] + ((to[1] - from[1]) * i) / Math.max(1, count - 1),
  })),
});

describe('isTooSmall: is the drawing a signature at all?', () => {
  it('an empty pad and a tap are too small', () => {
    expect(isTooSmall([])).toBe(true);
    expect(isTooSmall([line(1, [50, 50], [50, 50])])).toBe(true);
  });

  it('fewer than 10 points in all is too small, however wide', () => {
    expect(isTooSmall([line(5, [0, 0], [200, 80]), line(4, [0, 80], [200, 0])])).toBe(true);
    expect(isTooSmall([line(5, [0, 0], [200, 80]), line(5, [0, 80], [200, 0])])).toBe(false);
  });

  it('a box under 40×20 CSS px is too small, however many points', () => {
    expect(isTooSmall([line(50, [10, 10], [48, 60])])).toBe(true);
    expect(isTooSmall([line(50, [10, 10], [200, 29])])).toBe(true);
    expect(isTooSmall([line(50, [10, 10], [50, 30])])).toBe(false);
  });
});

describe('inkBox: where the ink is', () => {
  it('nothing drawn: null', () => {
    expect(inkBox(image(20, 10))).toBeNull();
  });

  it('the smallest box around every non-transparent pixel', () => {
    expect(
      inkBox(
        image(20, 10, [
          [3, 2],
          [12, 7],
          [5, 4],
        ]),
      ),
    ).toEqual({ x: 3, y: 2, width: 10, height: 6 });
  });

  it('a faint pixel (alpha 1) counts; a fully transparent coloured one does not', () => {
    const pixels = image(10, 10);
    const data = pixels.data as Uint8ClampedArray;
    data[(1 * 10 + 1) * 4] = 255; // red, alpha 0
    data[(8 * 10 + 6) * 4 + 3] = 1;
    expect(inkBox(pixels)).toEqual({ x: 6, y: 8, width: 1, height: 1 });
  });

  it('the margin grows the box but never past the image', () => {
    expect(inkBox(image(20, 10, [[5, 5]]), 3)).toEqual({ x: 2, y: 2, width: 7, height: 7 });
    expect(
      inkBox(
        image(20, 10, [
          [1, 0],
          [19, 9],
        ]),
        4,
      ),
    ).toEqual({ x: 0, y: 0, width: 20, height: 10 });
  });
});
