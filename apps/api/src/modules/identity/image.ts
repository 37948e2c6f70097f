import { crc32 } from 'node:zlib';

/**
 * What an uploaded file really is, read from its bytes: the declared type and the file name come
 * from the browser and prove nothing. Only the header is parsed here, a cheap first refusal; the
 * pixels are decoded in full by `decode.ts` before anything else uses the file.
 */
export type ImageFormat = 'jpeg' | 'png' | 'webp';
export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Identity documents and selfies: a phone photo is 2–6 MB and 12–48 MP. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 40_000_000;
/** The handwritten signature drawn on screen (a small PNG from a canvas). */
export const MAX_SIGNATURE_BYTES = 1024 * 1024;
export const SIGNATURE_MIN_SIDE = 20;
export const SIGNATURE_MAX_SIDE = 2000;

/** By content (magic bytes + header parsing), never by the declared type; null for anything else or a truncated/corrupt header. */
export function inspectImage(bytes: Uint8Array): ImageInfo | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return inspectPng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return inspectJpeg(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return inspectWebp(bytes);
  return null;
}

export type ImageCheck<R extends string> = { ok: true; info: ImageInfo } | { ok: false; reason: R };

/** An identity document photo or selfie: one still JPEG, PNG or WebP, at most 8 MB and 40 MP (and tooManyJpegScans). */
export function checkIdentityImage(bytes: Uint8Array): ImageCheck<'type' | 'size' | 'pixels' | 'animated'> {
  if (bytes.length > MAX_IMAGE_BYTES) return { ok: false, reason: 'size' };
  const info = inspectImage(bytes);
  if (!info) return { ok: false, reason: 'type' };
  if (info.width * info.height > MAX_IMAGE_PIXELS) return { ok: false, reason: 'pixels' };
  if (isAnimated(bytes)) return { ok: false, reason: 'animated' };
  return { ok: true, info };
}

/**
 * A progressive JPEG is decoded scan by scan inside one libjpeg call that no timeout interrupts: a
 * few hundred KB of legal scans kept a 36 MP decode busy for 15 s (issue 26's review). Cameras and
 * browsers write one scan, or about ten (libjpeg's progressive script); a few embedded thumbnails add
 * some more.
 */
export const MAX_JPEG_SCANS = 64;

const SCAN_CHUNK = 256 * 1024;

/**
 * Whether a JPEG holds more than MAX_JPEG_SCANS start-of-scan markers (FF DA; entropy-coded data
 * escapes every FF it carries). Counted 256 KB at a time with a turn of the event loop between:
 * a photo of 8 MB of FF bytes costs ~200 ms of JavaScript, which no request may hold in one piece.
 */
export async function tooManyJpegScans(b: Uint8Array): Promise<boolean> {
  const bytes = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  let scans = 0;
  for (let start = 0; start < bytes.length; start += SCAN_CHUNK) {
    // One byte past the chunk, so a marker across its end is seen, and only once.
    const part = bytes.subarray(start, Math.min(bytes.length, start + SCAN_CHUNK + 1));
    for (let i = part.indexOf(0xff); i >= 0 && i < part.length - 1; i = part.indexOf(0xff, i + 1))
      if (part[i + 1] === 0xda && ++scans > MAX_JPEG_SCANS) return true;
    if (start + SCAN_CHUNK < bytes.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

/** The handwritten signature: a still PNG of at most 1 MB, each side between 20 and 2000 px. */
export function checkSignaturePng(bytes: Uint8Array): ImageCheck<'type' | 'size' | 'dimensions' | 'animated'> {
  if (bytes.length > MAX_SIGNATURE_BYTES) return { ok: false, reason: 'size' };
  const info = inspectImage(bytes);
  if (!info || info.format !== 'png') return { ok: false, reason: 'type' };
  const inRange = (side: number) => side >= SIGNATURE_MIN_SIDE && side <= SIGNATURE_MAX_SIDE;
  if (!inRange(info.width) || !inRange(info.height)) return { ok: false, reason: 'dimensions' };
  if (isAnimated(bytes)) return { ok: false, reason: 'animated' };
  return { ok: true, info };
}

/**
 * An animated PNG (APNG: an acTL, fcTL or fdAT chunk anywhere) or WebP (the VP8X animation flag, or
 * an ANIM/ANMF chunk). Decoders show an APNG's first frame and may never look at the others, so
 * the chunks are looked for here: what a person signs or shows must be one picture.
 */
export function isAnimated(b: Uint8Array): boolean {
  if (startsWith(b, PNG_SIGNATURE)) {
    // Chunk headers only: length (4), type (4), data, CRC (4).
    for (let at = 8; at + 8 <= b.length; at += 12 + u32be(b, at)) {
      const type = ascii(b, at + 4, 4);
      if (type === 'acTL' || type === 'fcTL' || type === 'fdAT') return true;
      if (type === 'IEND') break;
    }
    return false;
  }
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    if (ascii(b, 12, 4) === 'VP8X' && b.length > 20 && (b[20]! & 0x02) !== 0) return true;
    for (let at = 12; at + 8 <= b.length; at += 8 + u32le(b, at + 4) + (u32le(b, at + 4) % 2)) {
      const type = ascii(b, at, 4);
      if (type === 'ANIM' || type === 'ANMF') return true;
    }
  }
  return false;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Allowed bit depths per PNG colour type (PNG spec, table 11.1). */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

function inspectPng(b: Uint8Array): ImageInfo | null {
  // Signature, then the first chunk must be IHDR: length 13, type, 13 data bytes, CRC.
  if (b.length < 33 || u32be(b, 8) !== 13 || ascii(b, 12, 4) !== 'IHDR') return null;
  if (crc32(b.subarray(12, 29)) !== u32be(b, 29)) return null;
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  const [depth, colorType, compression, filter, interlace] = [b[24]!, b[25]!, b[26]!, b[27]!, b[28]!];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return null;
  if (!PNG_DEPTHS[colorType]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return null;
  return { format: 'png', width, height };
}

/** Start-of-frame markers carry the size: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
/** Markers without a length: TEM, RST0–7, SOI. */
const isStandalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd8);

function inspectJpeg(b: Uint8Array): ImageInfo | null {
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return null; // every segment starts with a marker
    while (b[i] === 0xff) i++; // fill bytes
    if (i >= b.length) return null;
    const marker = b[i++]!;
    if (isStandalone(marker)) continue;
    // EOI or the scan data before any frame header: no size to read. 0x00 is not a marker here.
    if (marker === 0xd9 || marker === 0xda || marker === 0x00) return null;
    if (i + 2 > b.length) return null;
    const length = u16be(b, i);
    if (length < 2 || i + length > b.length) return null;
    if (isStartOfFrame(marker)) {
      // length(2) precision(1) height(2) width(2) components(1) then 3 bytes per component
      if (length < 8) return null;
      const height = u16be(b, i + 3);
      const width = u16be(b, i + 5);
      const components = b[i + 7]!;
      // A height of 0 (defined later by a DNL segment) cannot be checked against the pixel limit.
      if (width === 0 || height === 0 || components === 0 || length < 8 + 3 * components) return null;
      return { format: 'jpeg', width, height };
    }
    i += length;
  }
  return null;
}

function inspectWebp(b: Uint8Array): ImageInfo | null {
  if (b.length < 20) return null;
  const chunk = ascii(b, 12, 4);
  const chunkSize = u32le(b, 16);
  const d = 20; // chunk data
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes, bit 0 = 0 for a key frame), start code 9d 01 2a, then 14-bit sizes.
    if (b.length < d + 10 || chunkSize < 10) return null;
    if ((b[d]! & 1) !== 0 || b[d + 3] !== 0x9d || b[d + 4] !== 0x01 || b[d + 5] !== 0x2a) return null;
    const width = u16le(b, d + 6) & 0x3fff;
    const height = u16le(b, d + 8) & 0x3fff;
    return width && height ? { format: 'webp', width, height } : null;
  }
  if (chunk === 'VP8L') {
    // Signature 0x2f, then width-1 (14 bits), height-1 (14 bits), alpha (1), version (3, must be 0).
    if (b.length < d + 5 || chunkSize < 5 || b[d] !== 0x2f) return null;
    const bits = u32le(b, d + 1);
    if (bits >>> 29 !== 0) return null;
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    // Flags (1), reserved (3), canvas width-1 (24 bits), canvas height-1 (24 bits).
    if (b.length < d + 10 || chunkSize < 10) return null;
    return { format: 'webp', width: u24le(b, d + 4) + 1, height: u24le(b, d + 7) + 1 };
  }
  return null;
}

function startsWith(b: Uint8Array, prefix: number[]): boolean {
  return b.length >= prefix.length && prefix.every((byte, i) => b[i] === byte);
}
function ascii(b: Uint8Array, at: number, length: number): string {
  return b.length < at + length ? '' : String.fromCharCode(...b.subarray(at, at + length));
}
const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32le = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
