import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rgbaPng } from '../../../test/test-images.js';
import { embedSignature } from './signature-image.js';

const WIDTH = 37;
const HEIGHT = 10;

/** Noise (a fixed sequence), so that every filter and every branch of Paeth's predictor is used. */
function pattern(opaque = false): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 4);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    pixels[i] = opaque && i % 4 === 3 ? 255 : seed >> 23;
  }
  return pixels;
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** A PNG whose row y is written with filter y % 5: every filter of the format. */
function pngWithEveryFilter(pixels: Buffer): Buffer {
  const stride = WIDTH * 4;
  const scanlines = Buffer.alloc(HEIGHT * (stride + 1));
  for (let y = 0; y < HEIGHT; y++) {
    const filter = y % 5;
    scanlines[y * (stride + 1)] = filter;
    for (let x = 0; x < stride; x++) {
      const at = (dx: number, dy: number) => (x >= dx && y >= dy ? pixels[(y - dy) * stride + x - dx]! : 0);
      const predicted = [0, at(4, 0), at(0, 1), (at(4, 0) + at(0, 1)) >> 1, paeth(at(4, 0), at(0, 1), at(4, 1))][
        filter
      ]!;
      scanlines[y * (stride + 1) + 1 + x] = (pixels[y * stride + x]! - predicted) & 255;
    }
  }
  return rgbaPng(WIDTH, HEIGHT, scanlines);
}

function rawStream(doc: PDFDocument, ref: PDFObject | undefined): PDFRawStream {
  const object = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
  if (!(object instanceof PDFRawStream)) throw new Error('not a stream written as it is stored');
  return object;
}

/** The image's samples as a PDF reader gets them: its colour and, if any, its mask, inflated. */
function samples(doc: PDFDocument, ref: PDFRef) {
  const stream = rawStream(doc, ref);
  const mask = stream.dict.get(PDFName.of('SMask'));
  return {
    rgb: inflateSync(stream.contents),
    alpha: mask ? inflateSync(rawStream(doc, mask).contents) : null,
    dict: stream.dict,
  };
}

/** What libvips decodes from the same PNG, split as a PDF stores it. */
async function decodedBySharp(png: Buffer) {
  const rgba = await sharp(png).raw().toBuffer();
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  const alpha = Buffer.alloc(rgba.length / 4);
  for (let i = 0; i < alpha.length; i++) {
    rgba.copy(rgb, i * 3, i * 4, i * 4 + 3);
    alpha[i] = rgba[i * 4 + 3]!;
  }
  return { rgb, alpha };
}

describe('embedSignature', () => {
  it('puts the same pixels in the PDF as libvips decodes, whichever PNG filter each row uses', async () => {
    const png = pngWithEveryFilter(pattern());
    const doc = await PDFDocument.create();
    const image = await embedSignature(doc, png);
    expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
    const { rgb, alpha } = samples(doc, image.ref);
    const expected = await decodedBySharp(png);
    expect(rgb.equals(expected.rgb)).toBe(true);
    expect(alpha?.equals(expected.alpha)).toBe(true);
  });

  it('writes no transparency mask for an opaque signature', async () => {
    const png = pngWithEveryFilter(pattern(true));
    const doc = await PDFDocument.create();
    const { rgb, alpha, dict } = samples(doc, (await embedSignature(doc, png)).ref);
    expect(rgb.equals((await decodedBySharp(png)).rgb)).toBe(true);
    expect(alpha).toBeNull();
    expect(dict.get(PDFName.of('ColorSpace'))).toEqual(PDFName.of('DeviceRGB'));
  });

  it('embeds a PNG of another kind (RGB, palette) through pdf-lib', async () => {
    for (const png of [
      await sharp(pattern(true), { raw: { width: WIDTH, height: HEIGHT, channels: 4 } })
        .removeAlpha()
        .png()
        .toBuffer(),
      await sharp(pattern(), { raw: { width: WIDTH, height: HEIGHT, channels: 4 } })
        .png({ palette: true })
        .toBuffer(),
    ]) {
      const doc = await PDFDocument.create();
      const image = await embedSignature(doc, png);
      const saved = await PDFDocument.load(await doc.save());
      expect(rawStream(saved, image.ref).dict.get(PDFName.of('Width'))?.toString()).toBe(String(WIDTH));
    }
  });
});
