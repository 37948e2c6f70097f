import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { watchEventLoop } from '../../test/health-probe.js';
import { bigFlatPng, photoVariants, rawPng, signatureVariants, type Variant } from '../../test/image-variants.js';
import { createImageDecoder, MIN_INK_CONTRAST, type Decoded, type Encoded } from './decode.js';
import { checkIdentityImage, checkSignaturePng } from './image.js';
import { createJpeg, createPng } from '../../test/test-images.js';
import { BACKGROUND_NICE_INCREMENT } from '../../thread-priority.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const decoder = createImageDecoder({ concurrency: 2, maxWaiting: 1_000, timeoutMs: 10_000 });

/** What the upload calls do with a file: the header check, then the full decode. */
async function signature(bytes: Buffer): Promise<Decoded<Encoded>> {
  const header = checkSignaturePng(bytes);
  return header.ok ? decoder.signature(bytes) : { ok: false, reason: 'type' };
}
async function photo(bytes: Buffer): Promise<Decoded<Encoded>> {
  const header = checkIdentityImage(bytes);
  return header.ok ? decoder.photo(bytes, header.info.format) : { ok: false, reason: 'type' };
}

/** The event loop's longest busy stretch (CPU of this thread, ms) while `work` runs. */
async function busiestStretch(work: Promise<unknown>): Promise<number> {
  const watch = watchEventLoop();
  await work.catch(() => {});
  return watch.stop().worstBusyMs;
}

describe('the signature: decoded in full, refused when nothing shows, kept as the product’s own PNG', () => {
  let variants: Variant[];
  beforeAll(async () => {
    variants = await signatureVariants();
  });

  it('the truncated PNG of issue 26 (the first 60 bytes of a 280 × 120 signature) is refused at once', async () => {
    const cut = Buffer.from(createPng({ width: 280, height: 120 })).subarray(0, 60);
    const started = performance.now();
    expect(checkSignaturePng(cut).ok).toBe(true); // its header is a valid PNG header: only decoding tells
    expect(await decoder.signature(cut)).toEqual({ ok: false, reason: 'corrupt' });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('every variant is taken or refused as expected; what is taken is an 8-bit RGBA PNG of the same size, nothing else kept', async () => {
    const outcomes = [];
    for (const variant of variants) {
      const result = await signature(variant.bytes);
      outcomes.push({ name: variant.name, expect: variant.expect, got: result.ok ? 'ok' : 'refused' });
      if (!result.ok) continue;
      const meta = await sharp(result.value.bytes).metadata();
      const given = await sharp(variant.bytes).metadata();
      expect(meta, variant.name).toMatchObject({
        format: 'png',
        channels: 4,
        depth: 'uchar',
        width: given.width,
        height: given.height,
      });
      expect(result.value.sha256).toBe(sha256(result.value.bytes));
      expect(result.value.bytes.includes('<script>')).toBe(false);
    }
    expect(outcomes.filter((o) => o.expect !== 'either' && o.expect !== o.got)).toEqual([]);
  });

  it('no visible stroke: fully transparent, one colour, or too faint to print', async () => {
    const transparent = rawPng(280, 120, () => [0, 0, 0, 0]);
    const background = rawPng(280, 120, () => [255, 255, 255, 255]);
    const faint = rawPng(280, 120, (x, y) => (y === 60 ? [0, 0, 0, MIN_INK_CONTRAST - 2] : [0, 0, 0, 0]));
    const light = rawPng(280, 120, (x, y) => (y === 60 ? [0, 0, 0, MIN_INK_CONTRAST + 2] : [0, 0, 0, 0]));
    for (const blank of [transparent, background, faint]) {
      expect(await decoder.signature(blank)).toEqual({ ok: false, reason: 'blank' });
    }
    expect((await decoder.signature(light)).ok).toBe(true);
  });

  it('the same signature gives the same PNG and hash every time', async () => {
    const png = createPng({ width: 600, height: 200 });
    const [a, b] = await Promise.all([decoder.signature(png), decoder.signature(png)]);
    expect(a.ok && b.ok && a.value.sha256 === b.value.sha256).toBe(true);
  });
});

describe('identity photos: decoded in full, kept as an upright JPEG without metadata', () => {
  let variants: Variant[];
  beforeAll(async () => {
    variants = await photoVariants();
  }, 60_000);

  it('every variant is taken or refused as expected; what is taken is an upright JPEG without EXIF', async () => {
    const outcomes = [];
    for (const variant of variants) {
      const result = await photo(variant.bytes);
      outcomes.push({ name: variant.name, expect: variant.expect, got: result.ok ? 'ok' : 'refused' });
      if (!result.ok) continue;
      const meta = await sharp(result.value.bytes).metadata();
      expect(meta.format, variant.name).toBe('jpeg');
      expect(meta.exif, variant.name).toBeUndefined();
      expect(meta.orientation, variant.name).toBeUndefined();
      if (variant.size) expect({ width: meta.width, height: meta.height }, variant.name).toEqual(variant.size);
      expect(result.value).toMatchObject({ format: 'jpeg', width: meta.width, height: meta.height });
    }
    expect(outcomes.filter((o) => o.expect !== 'either' && o.expect !== o.got)).toEqual([]);
  }, 60_000);

  it('a phone photo turned by EXIF is stored turned, GPS and all other metadata gone', async () => {
    const taken = await sharp(Buffer.from(createJpeg({ width: 1280, height: 720, orientation: 6 })))
      .withExif({
        IFD0: { Make: 'Telefono', Orientation: '6' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '18/1 29/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    expect((await sharp(taken).metadata()).exif).toBeDefined();
    const result = await photo(taken);
    expect(result.ok).toBe(true);
    const kept = (result as { value: Encoded }).value;
    expect(await sharp(kept.bytes).metadata()).toMatchObject({ width: 720, height: 1280 });
    expect((await sharp(kept.bytes).metadata()).exif).toBeUndefined();
    expect(kept.bytes.includes('Telefono')).toBe(false);
  });

  it('a 36-megapixel photo is decoded on libuv’s threads: the event loop never waits', async () => {
    const big = bigFlatPng(6000, 6000);
    const started = performance.now();
    const work = decoder.photo(big, 'png');
    const lag = await busiestStretch(work);
    const took = performance.now() - started;
    expect((await work).ok).toBe(true);
    console.log(
      `36 MP PNG decoded and kept as JPEG in ${took.toFixed(0)} ms; longest event-loop busy stretch ${lag} ms of CPU`,
    );
    expect(lag).toBeLessThan(50);
  });

  it.runIf(process.platform === 'linux')(
    'libvips’ threads run below the event loop (nice +10), the event loop’s own priority untouched',
    async () => {
      const own = getPriority();
      expect((await decoder.photo(bigFlatPng(3000, 3000), 'png')).ok).toBe(true);
      const libvips = readdirSync('/proc/self/task')
        .filter((task) => readFileSync(`/proc/self/task/${task}/comm`, 'utf8').startsWith('libvips'))
        .map((task) => getPriority(Number(task)));
      expect(libvips.length).toBeGreaterThan(0);
      expect(new Set(libvips)).toEqual(new Set([Math.min(19, own + BACKGROUND_NICE_INCREMENT)]));
      expect(getPriority()).toBe(own);
    },
  );
});

describe('bounds: time and the waiting line', () => {
  it('a decode over its time bound is a Spanish 503 with Retry-After', async () => {
    const slow = createImageDecoder({ concurrency: 1, maxWaiting: 10, timeoutMs: 1 });
    const error = await slow.photo(bigFlatPng(4000, 4000), 'png').catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 503,
      code: 'IMAGE_TIMEOUT',
      readableMessage: 'No pudimos procesar la imagen a tiempo. Intenta de nuevo en un momento.',
      extra: { retry_after_seconds: 5 },
    });
    // The slot is given back once libvips has stopped: the decoder works again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(slow.running + slow.waiting).toBe(0);
  });

  it('past the waiting line a decode is refused at once with a Spanish 503', async () => {
    const narrow = createImageDecoder({ concurrency: 1, maxWaiting: 0, timeoutMs: 10_000 });
    const first = narrow.photo(bigFlatPng(3000, 3000), 'png');
    const second = await narrow.photo(bigFlatPng(3000, 3000), 'png').catch((e: unknown) => e);
    expect(second).toMatchObject({ statusCode: 503, code: 'BUSY', extra: { retry_after_seconds: 60 } });
    expect((await first).ok).toBe(true);
  });
});
