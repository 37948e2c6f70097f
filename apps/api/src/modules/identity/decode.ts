import { webcrypto } from 'node:crypto';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { createConcurrencyLimit } from '../../concurrency-limit.js';
import { AppError } from '../../errors.js';
import { createThreadDemoter } from '../../thread-priority.js';
import { MAX_IMAGE_PIXELS, SIGNATURE_MAX_SIDE, type ImageFormat } from './image.js';

/**
 * Every uploaded image is decoded in full by libvips (sharp) before anything else uses it, and
 * only what the product encodes again from the decoded pixels is kept: the PDF, the database and
 * the back office never see the uploaded bytes (issue 26, docs/decisions/021). The work runs on
 * libuv's threads, never on the event loop, a few images at a time, each within a time bound.
 */
export type DecodeRefusal = 'type' | 'corrupt' | 'pixels' | 'animated' | 'blank';
export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: DecodeRefusal };
const refuse = (reason: DecodeRefusal): { ok: false; reason: DecodeRefusal } => ({ ok: false, reason });

/** An image the product encoded itself: its bytes, size after orientation, and their SHA-256. */
export interface Encoded {
  bytes: Buffer;
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  sha256: string;
}

export interface ImageDecoder {
  /** The handwritten signature: a PNG with a visible stroke, kept as an 8-bit RGBA PNG. */
  signature(bytes: Uint8Array): Promise<Decoded<Encoded>>;
  /** An identity photo (JPEG, PNG or WebP): turned upright by its EXIF, kept as a JPEG without metadata. */
  photo(bytes: Uint8Array, format: ImageFormat): Promise<Decoded<Encoded>>;
  readonly running: number;
  readonly waiting: number;
}

/**
 * On the signature flattened onto white paper, the widest gap between the lightest and darkest
 * value of a channel below which nothing shows: fully transparent, one colour, or a stroke so faint
 * (≈12% ink) that the printed contract would look unsigned.
 */
export const MIN_INK_CONTRAST = 32;

/**
 * Identity copies: quality 90 with the colour resolution a browser's JPEG already has (4:2:0, what
 * the widget sends), in one pass: Huffman optimisation would hold every coefficient of the image
 * in memory (~250 MB at 40 MP) instead of a few rows.
 */
const PHOTO_JPEG = { quality: 90, optimiseCoding: false } as const;

let loadersRestricted = false;
/**
 * Only the JPEG, PNG and WebP decoders may read uploaded bytes: libvips would also open SVG, TIFF,
 * PDF, HEIF, FITS… by their content. Process-wide (sharp's own switch), set once.
 */
function restrictLoaders(): void {
  if (loadersRestricted) return;
  sharp.block({ operation: ['VipsForeignLoad'] });
  sharp.unblock({ operation: ['VipsForeignLoadJpegBuffer', 'VipsForeignLoadPngBuffer', 'VipsForeignLoadWebpBuffer'] });
  // No cache of decoded images between requests (memory), one libvips thread per image (the
  // concurrency limit below decides how many run at once); a pipeline still uses up to three threads.
  sharp.cache(false);
  sharp.concurrency(1);
  loadersRestricted = true;
}

const timedOut = () =>
  new AppError(
    503,
    'IMAGE_TIMEOUT',
    'image decoding took too long',
    'No pudimos procesar la imagen a tiempo. Intenta de nuevo en un momento.',
    { retry_after_seconds: 5 },
  );

/** SHA-256 on libuv's threads (WebCrypto), not on the event loop. */
export async function sha256Off(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

export function createImageDecoder(limits: {
  concurrency: number;
  maxWaiting: number;
  timeoutMs: number;
}): ImageDecoder {
  restrictLoaders();
  const limit = createConcurrencyLimit(limits.concurrency, limits.maxWaiting);
  // libvips' threads (kept between images) run below the event loop and the database's thread, as
  // the PDF threads do: a 36 MP decode takes its CPU after health checks and transactions.
  const lowerLibvipsThreads = createThreadDemoter('libvips');

  /**
   * One decode within the time bound (waiting for a slot included). Past it the request answers 503
   * at once; the slot stays taken until libvips has really stopped (its own timeout, whole seconds),
   * so runaways cannot pile up beyond the limit.
   */
  async function bounded<T>(job: (seconds: number) => Promise<T>): Promise<T> {
    const deadline = Date.now() + limits.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut()), limits.timeoutMs);
    });
    const work = limit.run(async () => {
      const left = deadline - Date.now();
      if (left <= 0) throw timedOut();
      // Threads libvips starts during a job are lowered within 50 ms, and kept low for the next ones.
      lowerLibvipsThreads();
      const lowering = setInterval(lowerLibvipsThreads, 50);
      try {
        return await job(Math.max(1, Math.ceil(left / 1000)));
      } finally {
        clearInterval(lowering);
        lowerLibvipsThreads();
      }
    });
    work.catch(() => {}); // answered by `expired` when the time ran out first
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A decoder error is the image's fault (truncated, corrupt, over the pixel limit), but running out of time is not. */
  async function decode(job: (seconds: number) => Promise<Decoded<Encoded>>): Promise<Decoded<Encoded>> {
    try {
      return await bounded(job);
    } catch (error) {
      if (error instanceof AppError) throw error;
      const message = error instanceof Error ? error.message : '';
      if (/^timeout/i.test(message)) throw timedOut();
      return refuse(/pixel limit/i.test(message) ? 'pixels' : 'corrupt');
    }
  }

  /** Refuses what the header check cannot see: another format inside, several pages (frames). */
  async function opened(bytes: Uint8Array, options: SharpOptions, format: ImageFormat): Promise<DecodeRefusal | null> {
    const meta = await sharp(bytes, options).metadata();
    if (meta.format !== format) return 'type';
    if ((meta.pages ?? 1) > 1) return 'animated';
    return null;
  }

  const encoded = async (image: Sharp, format: 'png' | 'jpeg'): Promise<Decoded<Encoded>> => {
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    const value = { bytes: data, format, width: info.width, height: info.height, sha256: await sha256Off(data) };
    return { ok: true, value };
  };

  return {
    get running() {
      return limit.running;
    },
    get waiting() {
      return limit.waiting;
    },

    async signature(bytes) {
      // Strict: a canvas export has no warnings to forgive (a bad CRC, a cut IDAT, bytes after the end).
      const options: SharpOptions = { failOn: 'warning', limitInputPixels: SIGNATURE_MAX_SIDE ** 2 };
      return decode(async (seconds) => {
        const refused = await opened(bytes, options, 'png');
        if (refused) return refuse(refused);
        // As it will look on white paper: is anything there?
        const paper = await sharp(bytes, options)
          .timeout({ seconds })
          .flatten({ background: '#ffffff' })
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true });
        const { width, height, channels } = paper.info;
        const stats = await sharp(paper.data, { raw: { width, height, channels } }).stats();
        const contrast = Math.max(...stats.channels.map((channel) => channel.max - channel.min));
        if (contrast < MIN_INK_CONTRAST) return refuse('blank');
        // What is stored, hashed and embedded in the PDF: 8-bit RGBA, whatever the upload's depth or palette.
        return encoded(
          sharp(bytes, options).timeout({ seconds }).toColourspace('srgb').ensureAlpha().png({ compressionLevel: 6 }),
          'png',
        );
      });
    },

    async photo(bytes, format) {
      // Strict too: the widget's photos are a browser's JPEG encoding, with nothing to forgive.
      const options: SharpOptions = { failOn: 'warning', limitInputPixels: MAX_IMAGE_PIXELS };
      return decode(async (seconds) => {
        const refused = await opened(bytes, options, format);
        if (refused) return refuse(refused);
        // Upright as the camera held it; white behind any transparency; no EXIF (GPS, device) kept.
        return encoded(
          sharp(bytes, options)
            .timeout({ seconds })
            .autoOrient()
            .flatten({ background: '#ffffff' })
            .toColourspace('srgb')
            .jpeg(PHOTO_JPEG),
          'jpeg',
        );
      });
    },
  };
}
