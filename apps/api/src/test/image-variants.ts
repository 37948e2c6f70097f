import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { PNG_SIGNATURE, pngChunk, rgbaPng } from './test-images.js';

/**
 * The images of the image fuzz suite (issue 26): valid ones of every kind a phone or a browser
 * makes, and broken ones made by byte surgery — cut at every length class, wrong CRCs, sizes that
 * lie, animations, other formats. Made from raw pixels with sharp's encoders only (its decoders
 * of other formats are switched off in a process that decodes uploads: decode.ts).
 */
export interface Variant {
  name: string;
  bytes: Buffer;
  /** 'ok': taken (and kept as the product's copy); 'refused': a 400; 'either': taken or refused, never more. */
  expect: 'ok' | 'refused' | 'either';
  /** For 'ok' photos: the stored copy's size (after EXIF orientation). */
  size?: { width: number; height: number };
}

/** A PNG's chunks: type, where the chunk starts (its length field) and its data's length. */
export function pngChunks(png: Buffer): { type: string; at: number; length: number }[] {
  const chunks = [];
  for (let at = 8; at + 8 <= png.length; at += 12 + png.readUInt32BE(at)) {
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), at, length: png.readUInt32BE(at) });
  }
  return chunks;
}

function chunkOf(png: Buffer, type: string) {
  const found = pngChunks(png).find((chunk) => chunk.type === type);
  if (!found) throw new Error(`no ${type} chunk`);
  return found;
}

/** One byte of a chunk's CRC flipped. */
export function withBadCrc(png: Buffer, type: string): Buffer {
  const { at, length } = chunkOf(png, type);
  const out = Buffer.from(png);
  out[at + 8 + length]! ^= 0x5a;
  return out;
}

/** IHDR declaring another size (its CRC made right again, so only the pixels can tell). */
export function withPngSize(png: Buffer, width: number, height: number): Buffer {
  const { at } = chunkOf(png, 'IHDR');
  const data = Buffer.from(png.subarray(at + 8, at + 8 + 13));
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  return Buffer.concat([png.subarray(0, at), pngChunk('IHDR', data), png.subarray(at + 25)]);
}

/** A chunk inserted before IDAT. */
export function withChunkBeforeIdat(png: Buffer, chunk: Buffer): Buffer {
  const { at } = chunkOf(png, 'IDAT');
  return Buffer.concat([png.subarray(0, at), chunk, png.subarray(at)]);
}

/** The same PNG made an APNG: acTL + fcTL before the image, a second frame (fcTL + fdAT) after it. */
export function asApng(png: Buffer): Buffer {
  const ihdr = chunkOf(png, 'IHDR');
  const width = png.readUInt32BE(ihdr.at + 8);
  const height = png.readUInt32BE(ihdr.at + 12);
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0); // two frames, looping forever
  const fctl = (sequence: number) => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence, 0);
    data.writeUInt32BE(width, 4);
    data.writeUInt32BE(height, 8);
    data.writeUInt16BE(1, 20);
    data.writeUInt16BE(10, 22);
    return pngChunk('fcTL', data);
  };
  const idat = chunkOf(png, 'IDAT');
  const frame = png.subarray(idat.at + 8, idat.at + 8 + idat.length);
  const sequence = Buffer.alloc(4);
  sequence.writeUInt32BE(2, 0);
  const iend = chunkOf(png, 'IEND');
  return Buffer.concat([
    png.subarray(0, idat.at),
    pngChunk('acTL', actl),
    fctl(0),
    png.subarray(idat.at, iend.at),
    fctl(1),
    pngChunk('fdAT', Buffer.concat([sequence, frame])),
    png.subarray(iend.at),
  ]);
}

/** A PNG written chunk by chunk: 8-bit RGBA rows of `pixel(x, y)` (no filter), one IDAT. */
export function rawPng(width: number, height: number, pixel: (x: number, y: number) => number[]): Buffer {
  const row = 1 + width * 4;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * row + 1 + x * 4);
  return rgbaPng(width, height, raw);
}

/** A PNG of width × height declared in IHDR whose image data is a few compressed zero rows: cut short. */
export function pngDeclaring(width: number, height: number): Buffer {
  return withPngSize(
    rawPng(8, 8, () => [0, 0, 0, 255]),
    width,
    height,
  );
}

/** A flat PNG of a size big in pixels and small in bytes (36 MP in ~140 KB: a decompression bomb that is a valid image). */
export function bigFlatPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + width * 3) * height, 0);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', new Uint8Array()),
  ]);
}

/** A signature stroke (a dark blue curve, 3 px wide) on a transparent canvas, as RGBA pixels. */
export function strokePixels(width: number, height: number, ink = [20, 30, 90, 255], paper = [0, 0, 0, 0]) {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(paper, i * 4);
  for (let x = 0; x < width; x++) {
    const y = Math.round(height / 2 + (height / 3) * Math.sin((x / width) * Math.PI * 2));
    for (let dy = -1; dy <= 1; dy++) {
      const row = Math.min(height - 1, Math.max(0, y + dy));
      data.set(ink, (row * width + x) * 4);
    }
  }
  return data;
}

const fromRaw = (data: Buffer, width: number, height: number, channels: 1 | 2 | 3 | 4) =>
  sharp(data, { raw: { width, height, channels } });

/** A photo-like picture (gradients and a textured band, like a card on a table) as RGB pixels. */
function photoPixels(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const card = x > width * 0.15 && x < width * 0.85 && y > height * 0.2 && y < height * 0.8;
      const texture = ((x * 7 + y * 13) % 23) * 2;
      data[i] = card ? 230 - texture : (x * 255) / width;
      data[i + 1] = card ? 225 - texture : (y * 255) / height;
      data[i + 2] = card ? 200 : 90 + texture;
    }
  }
  return data;
}

/** Lengths to cut a file at: every length class, from nothing to one byte short. */
export function cutLengths(length: number): number[] {
  const fixed = [0, 1, 2, 4, 8, 12, 16, 24, 32, 33, 41, 60, 64, 100, 128, 256, 512, 1024, 4096];
  const relative = [0.25, 0.5, 0.75, 0.9].map((f) => Math.floor(length * f));
  const end = [length - 13, length - 12, length - 4, length - 2, length - 1];
  return [...new Set([...fixed, ...relative, ...end])].filter((n) => n >= 0 && n < length).sort((a, b) => a - b);
}

/** Not images at all, or not the formats taken. */
async function otherFormats(): Promise<Variant[]> {
  const pixels = photoPixels(64, 48);
  return [
    { name: 'GIF', bytes: await fromRaw(pixels, 64, 48, 3).gif().toBuffer(), expect: 'refused' },
    { name: 'TIFF', bytes: await fromRaw(pixels, 64, 48, 3).tiff().toBuffer(), expect: 'refused' },
    {
      name: 'SVG',
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="280" height="120"><path d="M0 0L9 9"/></svg>'),
      expect: 'refused',
    },
    { name: 'PDF', bytes: Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), expect: 'refused' },
    { name: 'empty', bytes: Buffer.alloc(0), expect: 'refused' },
    { name: 'PNG signature then text', bytes: Buffer.concat([PNG_SIGNATURE, Buffer.from('hola')]), expect: 'refused' },
  ];
}

/** Cuts of `file` at every length class: refused before `intactFrom`, either after. */
function cuts(name: string, file: Buffer, intactFrom = file.length): Variant[] {
  return cutLengths(file.length).map((n) => ({
    name: `${name} cut at ${n} of ${file.length} bytes`,
    bytes: file.subarray(0, n),
    expect: n < intactFrom ? 'refused' : 'either',
  }));
}

/** The signature field: PNGs of a canvas and everything around them. */
export async function signatureVariants(): Promise<Variant[]> {
  const [w, h] = [280, 120];
  const stroke = strokePixels(w, h);
  const valid = await fromRaw(stroke, w, h, 4).png().toBuffer();
  const iendAt = chunkOf(valid, 'IEND').at;
  const onWhite = strokePixels(w, h, [0, 0, 0, 255], [255, 255, 255, 255]);
  const text = pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>'));
  const pixels = photoPixels(w, h);
  return [
    // Taken: every way a PNG can carry a visible stroke.
    { name: 'RGBA stroke (a canvas export)', bytes: valid, expect: 'ok' },
    { name: 'interlaced', bytes: await fromRaw(stroke, w, h, 4).png({ progressive: true }).toBuffer(), expect: 'ok' },
    {
      name: '16-bit',
      bytes: await fromRaw(stroke, w, h, 4).toColourspace('rgb16').png().toBuffer(),
      expect: 'ok',
    },
    {
      name: 'palette',
      bytes: await fromRaw(stroke, w, h, 4).png({ palette: true, colours: 4 }).toBuffer(),
      expect: 'ok',
    },
    { name: 'grey on white', bytes: await fromRaw(onWhite, w, h, 4).greyscale().png().toBuffer(), expect: 'ok' },
    { name: 'with a text chunk', bytes: withChunkBeforeIdat(valid, text), expect: 'ok' },
    {
      name: 'smallest (20 × 20)',
      bytes: await fromRaw(strokePixels(20, 20), 20, 20, 4).png().toBuffer(),
      expect: 'ok',
    },
    // Refused: nothing visible.
    {
      name: 'fully transparent',
      bytes: rawPng(w, h, () => [0, 0, 0, 0]),
      expect: 'refused',
    },
    { name: 'white background only', bytes: rawPng(w, h, () => [255, 255, 255, 255]), expect: 'refused' },
    { name: 'one colour only', bytes: rawPng(w, h, () => [20, 30, 90, 255]), expect: 'refused' },
    {
      name: 'a stroke at 5% opacity',
      bytes: await fromRaw(strokePixels(w, h, [0, 0, 0, 13]), w, h, 4)
        .png()
        .toBuffer(),
      expect: 'refused',
    },
    {
      name: 'a white stroke',
      bytes: await fromRaw(strokePixels(w, h, [255, 255, 255, 255]), w, h, 4)
        .png()
        .toBuffer(),
      expect: 'refused',
    },
    // Refused: broken or lying.
    ...cuts('PNG', valid, iendAt),
    { name: 'wrong IHDR CRC', bytes: withBadCrc(valid, 'IHDR'), expect: 'refused' },
    { name: 'wrong IDAT CRC', bytes: withBadCrc(valid, 'IDAT'), expect: 'refused' },
    { name: 'IHDR says 2000 × 2000, data for 280 × 120', bytes: withPngSize(valid, 2000, 2000), expect: 'refused' },
    { name: 'IHDR says 100000 × 100000', bytes: pngDeclaring(100_000, 100_000), expect: 'refused' },
    { name: 'IHDR says 19 × 120', bytes: withPngSize(valid, 19, 120), expect: 'refused' },
    { name: 'APNG (two frames)', bytes: asApng(valid), expect: 'refused' },
    { name: 'JPEG', bytes: await fromRaw(pixels, w, h, 3).jpeg().toBuffer(), expect: 'refused' },
    { name: 'WebP', bytes: await fromRaw(stroke, w, h, 4).webp().toBuffer(), expect: 'refused' },
    ...(await otherFormats()),
  ];
}

/** JPEG's SOF0 declaring another size. */
function withJpegSize(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i + 9 < out.length;) {
    if (out[i] !== 0xff) throw new Error('not at a marker');
    const marker = out[i + 1]!;
    const length = out.readUInt16BE(i + 2);
    if (marker === 0xc0 || marker === 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + length;
  }
  throw new Error('no frame header');
}

/** A JPEG whose entropy-coded data is overwritten in the middle (a corrupt scan, not a short one). */
function withCorruptScan(jpeg: Buffer): Buffer {
  const out = Buffer.from(jpeg);
  const from = Math.floor(out.length * 0.4);
  for (let i = from; i < from + 64; i++) out[i] = 0xff; // markers where data should be
  return out;
}

/** The identity photo fields: what phones and browsers send, and everything around it. */
export async function photoVariants(): Promise<Variant[]> {
  const [w, h] = [1024, 640];
  const pixels = photoPixels(w, h);
  const jpeg = await fromRaw(pixels, w, h, 3).jpeg({ quality: 85 }).toBuffer();
  const png = await fromRaw(pixels, w, h, 3).png().toBuffer();
  const webp = await fromRaw(pixels, w, h, 3).webp().toBuffer();
  const frames = await Promise.all(
    [0, 1].map((frame) =>
      fromRaw(Buffer.from(photoPixels(64, 48).map((v) => v ^ (frame * 0x55))), 64, 48, 3)
        .png()
        .toBuffer(),
    ),
  );
  const size = { width: w, height: h };
  const turned = { width: h, height: w };
  return [
    // Taken, each kept as an upright JPEG without metadata.
    { name: 'baseline JPEG', bytes: jpeg, expect: 'ok', size },
    {
      name: 'progressive JPEG',
      bytes: await fromRaw(pixels, w, h, 3).jpeg({ progressive: true }).toBuffer(),
      expect: 'ok',
      size,
    },
    ...(await Promise.all(
      [3, 6, 8].map(async (orientation) => ({
        name: `JPEG with EXIF orientation ${orientation}`,
        bytes: await fromRaw(pixels, w, h, 3).jpeg().withMetadata({ orientation }).toBuffer(),
        expect: 'ok' as const,
        size: orientation === 3 ? size : turned,
      })),
    )),
    {
      name: 'CMYK JPEG',
      bytes: await fromRaw(pixels, w, h, 3).toColourspace('cmyk').jpeg().toBuffer(),
      expect: 'ok',
      size,
    },
    { name: 'greyscale JPEG', bytes: await fromRaw(pixels, w, h, 3).greyscale().jpeg().toBuffer(), expect: 'ok', size },
    { name: 'PNG', bytes: png, expect: 'ok', size },
    {
      name: 'PNG with transparency',
      bytes: await fromRaw(strokePixels(w, h), w, h, 4).png().toBuffer(),
      expect: 'ok',
      size,
    },
    {
      name: '16-bit PNG',
      bytes: await fromRaw(pixels, w, h, 3).toColourspace('rgb16').png().toBuffer(),
      expect: 'ok',
      size,
    },
    {
      name: 'palette PNG',
      bytes: await fromRaw(pixels, w, h, 3).png({ palette: true, colours: 16 }).toBuffer(),
      expect: 'ok',
      size,
    },
    {
      name: 'interlaced PNG',
      bytes: await fromRaw(pixels, w, h, 3).png({ progressive: true }).toBuffer(),
      expect: 'ok',
      size,
    },
    { name: 'lossy WebP', bytes: webp, expect: 'ok', size },
    {
      name: 'lossless WebP',
      bytes: await fromRaw(pixels, w, h, 3).webp({ lossless: true }).toBuffer(),
      expect: 'ok',
      size,
    },
    {
      name: '36 MP flat PNG in a few hundred KB',
      bytes: bigFlatPng(6000, 6000),
      expect: 'ok',
      size: { width: 6000, height: 6000 },
    },
    // Refused: broken or lying.
    ...cuts('JPEG', jpeg),
    ...cuts('PNG', png, chunkOf(png, 'IEND').at).filter((_, i) => i % 2 === 0),
    ...cuts('WebP', webp).filter((_, i) => i % 2 === 0),
    { name: 'JPEG with a corrupt scan', bytes: withCorruptScan(jpeg), expect: 'refused' },
    { name: 'JPEG declaring 65535 × 65535', bytes: withJpegSize(jpeg, 65_535, 65_535), expect: 'refused' },
    {
      name: 'JPEG declaring 6000 × 6000 (36 MP) with 1 MP of data',
      bytes: withJpegSize(jpeg, 6000, 6000),
      expect: 'refused',
    },
    { name: 'PNG IHDR declaring 8000 × 5001', bytes: pngDeclaring(8000, 5001), expect: 'refused' },
    { name: 'PNG IHDR declaring 8000 × 5000 with 8 × 8 of data', bytes: pngDeclaring(8000, 5000), expect: 'refused' },
    { name: 'PNG with a wrong IDAT CRC', bytes: withBadCrc(png, 'IDAT'), expect: 'refused' },
    { name: 'PNG with a wrong IHDR CRC', bytes: withBadCrc(png, 'IHDR'), expect: 'refused' },
    { name: 'APNG', bytes: asApng(png), expect: 'refused' },
    {
      name: 'animated WebP',
      bytes: await sharp(frames, { join: { animated: true } })
        .webp()
        .toBuffer(),
      expect: 'refused',
    },
    ...(await otherFormats()),
  ];
}
