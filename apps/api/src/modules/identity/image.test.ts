import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { progressiveScanBomb } from '../../test/jpeg-scan-bomb.js';
import {
  checkIdentityImage,
  checkSignaturePng,
  inspectImage,
  isAnimated,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_SIGNATURE_BYTES,
  tooManyJpegScans,
} from './image.js';
import {
  createJpeg,
  createPng,
  createPngHeader,
  createWebpExtended,
  createWebpLossless,
  createWebpLossy,
} from '../../test/test-images.js';

const text = (s: string) => new TextEncoder().encode(s);
const cut = (bytes: Uint8Array, length: number) => bytes.slice(0, length);

describe('inspectImage: what the bytes are, whatever the upload says', () => {
  it('reads a real PNG', () => {
    expect(inspectImage(createPng({ width: 300, height: 100 }))).toEqual({ format: 'png', width: 300, height: 100 });
  });

  it('reads JPEG frame headers: baseline, progressive, after EXIF and fill bytes', () => {
    expect(inspectImage(createJpeg({ width: 4032, height: 3024 }))).toEqual({
      format: 'jpeg',
      width: 4032,
      height: 3024,
    });
    expect(inspectImage(createJpeg({ width: 800, height: 600, sof: 0xc2 }))).toMatchObject({ width: 800, height: 600 });
    expect(inspectImage(createJpeg({ width: 17, height: 9, exif: true, fill: 3 }))).toMatchObject({
      width: 17,
      height: 9,
    });
  });

  it('does not mistake DHT (C4), JPG (C8) or DAC (CC) for a frame header', () => {
    for (const marker of [0xc4, 0xc8, 0xcc]) {
      // The only "frame" is one of these: no size can be read.
      expect(inspectImage(createJpeg({ sof: marker }))).toBeNull();
    }
  });

  it('reads the three WebP encodings', () => {
    expect(inspectImage(createWebpLossy(1024, 768))).toEqual({ format: 'webp', width: 1024, height: 768 });
    expect(inspectImage(createWebpLossless(1, 1))).toEqual({ format: 'webp', width: 1, height: 1 });
    expect(inspectImage(createWebpLossless(16384, 2))).toEqual({ format: 'webp', width: 16384, height: 2 });
    expect(inspectImage(createWebpExtended(5000, 3000))).toEqual({ format: 'webp', width: 5000, height: 3000 });
  });

  it('a PNG renamed .jpg is still a PNG', () => {
    const renamed = createPng({ width: 40, height: 30 }); // the name and declared type never reach inspectImage
    expect(inspectImage(renamed)?.format).toBe('png');
  });

  it('anything else is null: PDF, GIF, text, empty', () => {
    expect(inspectImage(text('%PDF-1.7\n%âãÏÓ\n1 0 obj'))).toBeNull();
    expect(inspectImage(text('GIF89a\x01\x00\x01\x00\x80\x00\x00'))).toBeNull();
    expect(inspectImage(text('hola, esto es una foto'))).toBeNull();
    expect(inspectImage(new Uint8Array())).toBeNull();
    expect(inspectImage(text('RIFF\x10\x00\x00\x00WAVEfmt '))).toBeNull();
  });

  it('truncated or corrupt headers are null', () => {
    const png = createPng({ width: 50, height: 50 });
    for (const length of [1, 8, 16, 24, 32]) expect(inspectImage(cut(png, length))).toBeNull();
    const badCrc = png.slice();
    badCrc[17]! ^= 0x01; // a changed width byte no longer matches the IHDR CRC
    expect(inspectImage(badCrc)).toBeNull();

    const jpeg = createJpeg({ width: 640, height: 480 });
    const sofAt = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
    for (const length of [2, 3, 6, sofAt, sofAt + 3, sofAt + 8]) expect(inspectImage(cut(jpeg, length))).toBeNull();
    expect(inspectImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull(); // SOI EOI: no frame
    expect(inspectImage(Uint8Array.from([0xff, 0xd8, 0x00, 0x00, 0x00]))).toBeNull(); // no marker after SOI

    for (const webp of [createWebpLossy(10, 10), createWebpLossless(10, 10), createWebpExtended(10, 10)]) {
      for (const length of [12, 16, 20, 24]) expect(inspectImage(cut(webp, length))).toBeNull();
    }
    const lossy = createWebpLossy(10, 10);
    lossy[23] = 0x00; // start code broken
    expect(inspectImage(lossy)).toBeNull();
  });

  it('reports huge declared dimensions as declared (the caller enforces the pixel limit)', () => {
    expect(inspectImage(createPngHeader(100_000, 100_000))).toEqual({ format: 'png', width: 100_000, height: 100_000 });
    expect(inspectImage(createJpeg({ width: 65535, height: 65535 }))).toMatchObject({ width: 65535, height: 65535 });
    expect(inspectImage(createWebpExtended(16_777_216, 16_777_216))).toMatchObject({ width: 16_777_216 });
  });
});

describe('checkIdentityImage', () => {
  it('accepts a phone photo and says what it is', () => {
    expect(checkIdentityImage(createJpeg({ width: 4000, height: 3000 }))).toEqual({
      ok: true,
      info: { format: 'jpeg', width: 4000, height: 3000 },
    });
  });

  it('refuses other types, files over 8 MB and images over 40 MP', () => {
    expect(checkIdentityImage(text('%PDF-1.4'))).toEqual({ ok: false, reason: 'type' });
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(createJpeg());
    expect(checkIdentityImage(big)).toEqual({ ok: false, reason: 'size' });
    expect(checkIdentityImage(createPngHeader(8000, 5001))).toEqual({ ok: false, reason: 'pixels' });
    expect(8000 * 5000).toBe(MAX_IMAGE_PIXELS);
    expect(checkIdentityImage(createPngHeader(8000, 5000)).ok).toBe(true);
  });

  it('refuses a progressive JPEG of thousands of legal scans (one libjpeg call no timeout stops)', async () => {
    const bomb = progressiveScanBomb();
    expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
    expect(checkIdentityImage(bomb)).toMatchObject({ ok: true, info: { format: 'jpeg' } });
    expect(await tooManyJpegScans(bomb)).toBe(true);
    // A camera's or a browser's progressive JPEG (libjpeg's script, about ten scans) is a photo.
    const progressive = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#7a8b9c' } })
      .jpeg({ progressive: true, quality: 85 })
      .toBuffer();
    expect(await tooManyJpegScans(progressive)).toBe(false);
  });

  it('counts the scans of 8 MB of FF bytes without holding the event loop in one piece', async () => {
    const header = createJpeg({ width: 640, height: 480 });
    const flood = Buffer.concat([
      header.subarray(0, header.length - 2),
      Buffer.alloc(MAX_IMAGE_BYTES - header.length, 0xff),
    ]);
    // The event loop's turns while it counts: a timer of 0 ms runs between its pieces.
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const started = performance.now();
    expect(await tooManyJpegScans(flood)).toBe(false);
    clearInterval(ticking);
    const took = performance.now() - started;
    expect(turns).toBeGreaterThan(Math.min(8, took / 50));
    // A marker across a piece's end (256 KB) is counted, and once: 64 markers pass, 65 do not.
    const markers = (others: number) => {
      const bytes = Buffer.alloc(2 * 256 * 1024, 0);
      bytes.set([0xff, 0xda], 256 * 1024 - 1);
      for (let k = 0; k < others; k++) bytes.set([0xff, 0xda], k * 4096);
      return bytes;
    };
    expect(await tooManyJpegScans(markers(63))).toBe(false);
    expect(await tooManyJpegScans(markers(64))).toBe(true);
  });
});

describe('checkSignaturePng', () => {
  it('accepts a canvas export', () => {
    expect(checkSignaturePng(createPng({ width: 600, height: 200 }))).toEqual({
      ok: true,
      info: { format: 'png', width: 600, height: 200 },
    });
  });

  it('must be a PNG of at most 1 MB with each side between 20 and 2000 px', () => {
    expect(checkSignaturePng(createJpeg({ width: 600, height: 200 }))).toEqual({ ok: false, reason: 'type' });
    expect(checkSignaturePng(text('data:image/png;base64,iVBOR'))).toEqual({ ok: false, reason: 'type' });
    const heavy = new Uint8Array(MAX_SIGNATURE_BYTES + 1);
    heavy.set(createPngHeader(600, 200));
    expect(checkSignaturePng(heavy)).toEqual({ ok: false, reason: 'size' });
    expect(checkSignaturePng(createPngHeader(19, 200))).toEqual({ ok: false, reason: 'dimensions' });
    expect(checkSignaturePng(createPngHeader(600, 2001))).toEqual({ ok: false, reason: 'dimensions' });
    expect(checkSignaturePng(createPngHeader(20, 2000)).ok).toBe(true);
  });
});

describe('animations: refused before decoding (a decoder shows the first frame and may skip the rest)', () => {
  it('an APNG (acTL before the image) and an animated WebP (VP8X flag, ANIM/ANMF chunks)', () => {
    const png = Buffer.from(createPng({ width: 40, height: 30 }));
    const actl = Buffer.from([0, 0, 0, 8, 0x61, 0x63, 0x54, 0x4c, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    const apng = Buffer.concat([png.subarray(0, 33), actl, png.subarray(33)]);
    expect(isAnimated(apng)).toBe(true);
    expect(isAnimated(png)).toBe(false);
    expect(checkSignaturePng(apng)).toEqual({ ok: false, reason: 'animated' });
    expect(checkIdentityImage(apng)).toEqual({ ok: false, reason: 'animated' });

    const still = createWebpExtended(40, 30);
    const flagged = Buffer.from(still);
    flagged[20] = 0x12; // alpha + animation
    expect(isAnimated(still)).toBe(false);
    expect(isAnimated(flagged)).toBe(true);
    expect(checkIdentityImage(flagged)).toEqual({ ok: false, reason: 'animated' });
  });
});
