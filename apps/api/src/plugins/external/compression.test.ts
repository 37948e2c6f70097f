import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_ON_LOOP_BYTES, COMPRESSION_THRESHOLD, registerCompression } from './compression.js';

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Municipio número ${i}` })) };
const bigJson = JSON.stringify(big);
/** Above the size compressed on the event loop: compressed on zlib's pool. */
const huge = { items: Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `Municipio número ${i}` })) };
const hugeJson = JSON.stringify(huge);

describe('compression of answers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    registerCompression(app);
    app.get('/big', async () => big);
    app.get('/huge', async () => huge);
    app.get('/small', async () => ({ ok: true }));
    app.get('/html', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>hola</p>'.repeat(200)));
    app.get('/pdf', async (_request, reply) => reply.type('application/pdf').send(Buffer.alloc(4096, 1)));
    app.get('/stream', async (_request, reply) => reply.type('text/plain').send(Readable.from(['x'.repeat(4096)])));
    app.get('/encoded', async (_request, reply) =>
      reply.type('text/html').header('content-encoding', 'br').send(Buffer.alloc(2048, 2)),
    );
    app.get('/cors', async (_request, reply) => reply.header('vary', 'origin').send(big));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends brotli when accepted, else gzip, else the answer as it is; always saying it varies', async () => {
    expect(bigJson.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    const br = await get('/big', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigJson);
    expect(br.rawPayload.length).toBeLessThan(bigJson.length / 3);

    const gzip = await get('/big', 'gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(bigJson);

    for (const accepted of [undefined, 'identity', 'deflate']) {
      const plain = await get('/big', accepted);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(bigJson);
      expect(plain.headers.vary).toBe('accept-encoding');
    }
    expect(br.headers.vary).toBe('accept-encoding');
  });

  it('compresses an answer above the size done on the event loop too, off it', async () => {
    expect(bigJson.length).toBeLessThanOrEqual(COMPRESS_ON_LOOP_BYTES);
    expect(hugeJson.length).toBeGreaterThan(COMPRESS_ON_LOOP_BYTES);
    const br = await get('/huge', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(hugeJson);
    const gzip = await get('/huge', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(hugeJson);
  });

  it('compresses pages too, and adds to a Vary another part set', async () => {
    const html = await get('/html', 'br');
    expect(html.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(html.rawPayload).toString()).toBe('<p>hola</p>'.repeat(200));
    const cors = await get('/cors', 'br');
    expect(cors.headers.vary).toBe('origin, accept-encoding');
  });

  it('leaves small answers, other types, streams and answers with their own encoding alone', async () => {
    const small = await get('/small', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
    const pdf = await get('/pdf', 'br');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload).toEqual(Buffer.alloc(4096, 1));
    const stream = await get('/stream', 'br');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body).toBe('x'.repeat(4096));
    const encoded = await get('/encoded', 'gzip');
    expect(encoded.headers['content-encoding']).toBe('br');
    expect(encoded.rawPayload).toEqual(Buffer.alloc(2048, 2));
  });
});
