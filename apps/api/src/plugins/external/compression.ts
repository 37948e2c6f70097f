import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { chooseEncoding } from './spa.js';

/** Smaller answers go as they are: compressing them saves less on 3G than it costs. */
export const COMPRESSION_THRESHOLD = 1024;
/** Text: JSON, HTML, CSS, JavaScript, SVG. Not PDFs, images or what is compressed already. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml)|image\/svg\+xml)/;
/**
 * Answers up to this size are compressed at once on the event loop: ≤ 0.25 ms there at 64 KB, while
 * a call to zlib's pool costs ~0.15–0.2 ms of CPU beyond the compression itself (a 1.6 KB answer:
 * 30 µs on the loop, 190 µs through the pool). Larger ones go to the pool.
 */
export const COMPRESS_ON_LOOP_BYTES = 64 * 1024;
/** Brotli at quality 4 in its text mode, as @fastify/compress had it: fast enough per request. */
const BROTLI = {
  params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 },
};

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
}

/**
 * Answers of 1 KB or more compressed as the browser accepts (brotli, else gzip; spa.ts's
 * `chooseEncoding`): the catalogue lists and the pages shrink 3–6× on 3G. One `onSend` hook that
 * lets every small answer through at once, and compresses a whole answer in one call, on the loop
 * up to COMPRESS_ON_LOOP_BYTES and off it (zlib's pool) above; it replaces @fastify/compress, whose three hooks per request (and a
 * stream per compressed answer) cost 5–10% of a small answer's time here (docs/PERFORMANCE.md).
 * Left as they are: streams (the built files, compressed at build time and sent by
 * @fastify/static), answers that set their own encoding (the pages, spa.ts), and other types.
 * Request bodies are not decompressed: the app never sends compressed ones.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
      payload.length < COMPRESSION_THRESHOLD ||
      reply.hasHeader('content-encoding') ||
      !COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))
    ) {
      done(null, payload);
      return;
    }
    addVary(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') {
      done(null, payload);
      return;
    }
    const compressed = (error: Error | null, result: Buffer) => {
      // Not expected from zlib on a whole buffer; the answer then goes uncompressed.
      if (error) {
        done(null, payload);
        return;
      }
      reply.header('content-encoding', encoding).removeHeader('content-length');
      done(null, result);
    };
    if (Buffer.byteLength(payload) <= COMPRESS_ON_LOOP_BYTES) {
      let result: Buffer;
      try {
        result = encoding === 'br' ? brotliCompressSync(payload, BROTLI) : gzipSync(payload);
      } catch (error) {
        compressed(error as Error, Buffer.alloc(0));
        return;
      }
      compressed(null, result);
    } else if (encoding === 'br') brotliCompress(payload, BROTLI, compressed);
    else gzip(payload, compressed);
  });
}
