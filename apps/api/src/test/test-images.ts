import { crc32, deflateSync } from 'node:zlib';

/**
 * Image factories for tests: real PNGs (any size, drawn with a stroke so a signature is visible),
 * real JPEGs (a flat grey picture any decoder opens), and WebP headers built byte by byte.
 */

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An 8-bit RGBA PNG (deflate, no interlace) of these scanlines, each a filter byte then 4 bytes a
 * pixel, in one IDAT.
 */
export function rgbaPng(width: number, height: number, scanlines: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(scanlines)),
    pngChunk('IEND', new Uint8Array()),
  ]);
}

/** Scanlines of a transparent picture with a dark diagonal stroke, 5 pixels wide. */
function diagonalStroke(width: number, height: number): Buffer {
  const row = 1 + width * 4;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    const x = Math.round((y / Math.max(1, height - 1)) * (width - 1));
    for (let dx = -2; dx <= 2; dx++) {
      const px = x + dx;
      if (px >= 0 && px < width) raw.set([20, 30, 90, 255], y * row + 1 + px * 4);
    }
  }
  return raw;
}

/** A real RGBA PNG: transparent, with a dark diagonal stroke (what a signature canvas exports). */
export function createPng({ width = 300, height = 100 }: { width?: number; height?: number } = {}): Uint8Array {
  return rgbaPng(width, height, diagonalStroke(width, height));
}

/** Only the signature and IHDR of a PNG (the image data is never read to learn the size). */
export function createPngHeader(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr)]);
}

const segment = (marker: number, payload: number[]) => [
  0xff,
  marker,
  (payload.length + 2) >> 8,
  (payload.length + 2) & 0xff,
  ...payload,
];

/** EXIF (APP1) holding one tag, the orientation: big-endian TIFF, one IFD with one entry. */
function exifOrientation(orientation: number): number[] {
  const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8]; // "MM", 42, first IFD at 8
  const ifd = [0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]; // 1 entry: 0x0112 SHORT ×1
  return [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff, ...ifd];
}

/**
 * A JPEG as a camera writes it, and one any decoder opens in full: SOI, APP0 (JFIF), optional APP1
 * (EXIF with an orientation), DQT, the frame header (SOF0 baseline unless told), DHT, SOS, the
 * entropy-coded scan of a flat grey picture (every block: DC difference 0, then end of block; one
 * 1-bit code each), EOI. Another frame marker (`sof`) keeps the header for the parser's tests; its
 * scan is not one a decoder accepts.
 */
export function createJpeg({
  width = 640,
  height = 480,
  sof = 0xc0,
  fill = 0,
  exif = false,
  orientation,
}: {
  width?: number;
  height?: number;
  sof?: number;
  fill?: number;
  exif?: boolean;
  orientation?: number;
} = {}): Uint8Array {
  const jfif = [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 72, 0, 72, 0, 0];
  const app1 = exif || orientation ? segment(0xe1, exifOrientation(orientation ?? 1)) : [];
  const dqt = segment(0xdb, [0, ...new Array<number>(64).fill(1)]);
  // Three components, 1×1 sampling (4:4:4), all on quantisation table 0.
  const frame = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0];
  // DC table 0 and AC table 0: one code of length 1 each (symbol 0: "no difference" / "end of block").
  const oneCode = [1, ...new Array<number>(15).fill(0), 0];
  const dht = segment(0xc4, [0x00, ...oneCode, 0x10, ...oneCode]);
  const sos = segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8) * 3;
  // Past 4 MB of scan (over ~100 megapixels: only the header matters there) a few bytes stand in.
  let scan = Uint8Array.from([0x12, 0x34, 0xff, 0x00, 0x56]);
  if (blocks / 4 <= 4 * 1024 * 1024) {
    scan = new Uint8Array(Math.ceil((blocks * 2) / 8)); // 2 zero bits per block
    const used = (blocks * 2) % 8;
    if (used) scan[scan.length - 1] = 0xff >> used; // padded with 1 bits (never a whole 0xff byte)
  }
  const head = [
    0xff,
    0xd8,
    ...segment(0xe0, jfif),
    ...app1,
    ...dqt,
    ...new Array<number>(fill).fill(0xff),
    ...segment(sof, frame),
    ...dht,
    ...sos,
  ];
  return Buffer.concat([Uint8Array.from(head), scan, Uint8Array.from([0xff, 0xd9])]);
}

function riff(chunk: string, data: number[]): Uint8Array {
  const padded = data.length % 2 ? [...data, 0] : data;
  const out = Buffer.alloc(20 + padded.length);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(12 + padded.length, 4);
  out.write('WEBP', 8, 'latin1');
  out.write(chunk, 12, 'latin1');
  out.writeUInt32LE(data.length, 16);
  out.set(padded, 20);
  return out;
}

/** Lossy WebP (VP8 key frame): frame tag, start code 9d 01 2a, 14-bit width and height. */
export function createWebpLossy(width: number, height: number): Uint8Array {
  const frameTag = [0x50, 0x02, 0x00]; // key frame, version 0, shown
  const sizes = [width & 0xff, (width >> 8) & 0x3f, height & 0xff, (height >> 8) & 0x3f];
  return riff('VP8 ', [...frameTag, 0x9d, 0x01, 0x2a, ...sizes, ...new Array<number>(8).fill(0)]);
}

/** Lossless WebP (VP8L): signature 0x2f, then width-1 and height-1 in 14 bits each. */
export function createWebpLossless(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14) | (1 << 28); // alpha used, version 0
  return riff('VP8L', [0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, bits >>> 24, 0x07, 0x00]);
}

/** Extended WebP (VP8X): flags, 3 reserved bytes, canvas width-1 and height-1 in 24 bits each. */
export function createWebpExtended(width: number, height: number): Uint8Array {
  const w = width - 1;
  const h = height - 1;
  return riff('VP8X', [0x10, 0, 0, 0, w & 0xff, (w >> 8) & 0xff, w >> 16, h & 0xff, (h >> 8) & 0xff, h >> 16]);
}
