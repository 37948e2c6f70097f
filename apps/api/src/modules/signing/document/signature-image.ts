import { deflateSync, inflateSync } from 'node:zlib';
import { degrees, drawImage, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';

/** A signature image in the document: its object and its size in pixels. */
export interface SignatureImage {
  ref: PDFRef;
  width: number;
  height: number;
}

interface RgbaPixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * The signature's PNG as a PDF image with its transparency (an SMask), as pdf-lib's embedPng writes
 * it. The product stores every signature as an 8-bit RGBA PNG (identity's decode.ts): that one is
 * unpacked and packed again with Node's zlib, where pdf-lib's PNG code does it in JavaScript (UPNG
 * and pako), more than half of the PDF thread's time for a phone's signature (issue 35, decision
 * 039). A damaged one fails at once in zlib; any other kind of PNG (none is stored today) goes
 * through pdf-lib.
 */
export async function embedSignature(doc: PDFDocument, png: Uint8Array): Promise<SignatureImage> {
  const pixels = rgbaPixels(png);
  if (!pixels) return doc.embedPng(png);
  const { width, height, rgba } = pixels;
  const rgb = new Uint8Array(width * height * 3);
  const alpha = new Uint8Array(width * height);
  let transparent = false;
  for (let pixel = 0; pixel < alpha.length; pixel++) {
    rgb[pixel * 3] = rgba[pixel * 4]!;
    rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]!;
    rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]!;
    alpha[pixel] = rgba[pixel * 4 + 3]!;
    if (alpha[pixel]! < 255) transparent = true;
  }
  const image = { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 8 };
  const stream = (bytes: Uint8Array, more: Record<string, unknown>) =>
    doc.context.register(doc.context.stream(deflateSync(bytes), { ...image, ...more, Filter: 'FlateDecode' }));
  // Fully opaque: no mask, as pdf-lib writes it.
  const SMask = transparent ? stream(alpha, { ColorSpace: 'DeviceGray', Decode: [0, 1] }) : undefined;
  return { ref: stream(rgb, { ColorSpace: 'DeviceRGB', SMask }), width, height };
}

/** Draws the image at this place and size (what pdf-lib's page.drawImage writes). */
export function drawSignature(
  page: PDFPage,
  image: SignatureImage,
  at: { x: number; y: number; width: number; height: number },
): void {
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(...drawImage(name, { ...at, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }));
}

/** The pixels of an 8-bit RGBA, non-interlaced PNG; null for any other kind. */
function rgbaPixels(png: Uint8Array): RgbaPixels | null {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= view.length;) {
    const length = view.readUInt32BE(at);
    const type = view.toString('latin1', at + 4, at + 8);
    const body = view.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      // bit depth 8, colour type 6 (RGBA), no interlace
      if (body[8] !== 8 || body[9] !== 6 || body[12] !== 0) return null;
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (width === 0 || height === 0 || data.length === 0) return null;
  const size = height * (1 + width * 4);
  // Never more than the header's pixels: the worker's heap limit does not cover Buffers.
  const filtered = inflateSync(Buffer.concat(data), { maxOutputLength: size });
  if (filtered.length !== size) return null;
  return { width, height, rgba: unfilter(filtered, width, height) };
}

/** PNG's five scanline filters undone (4 bytes a pixel); sharp writes "none" on every row. */
function unfilter(filtered: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const out = new Uint8Array(stride * height);
  const zeros = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)]!;
    const line = filtered.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = out.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? out.subarray((y - 1) * stride, y * stride) : zeros;
    if (filter === 0) row.set(line);
    else if (filter === 1) for (let x = 0; x < stride; x++) row[x] = line[x]! + (x >= 4 ? row[x - 4]! : 0);
    else if (filter === 2) for (let x = 0; x < stride; x++) row[x] = line[x]! + up[x]!;
    else if (filter === 3)
      for (let x = 0; x < stride; x++) row[x] = line[x]! + (((x >= 4 ? row[x - 4]! : 0) + up[x]!) >> 1);
    else if (filter === 4)
      for (let x = 0; x < stride; x++) row[x] = line[x]! + (x >= 4 ? paeth(row[x - 4]!, up[x]!, up[x - 4]!) : up[x]!);
    else throw new Error(`PNG filter ${filter}`);
  }
  return out;
}

/** Paeth's predictor: the neighbour closest to left + up - upLeft. */
function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}
