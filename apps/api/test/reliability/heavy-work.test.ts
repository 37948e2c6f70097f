import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPng } from '../../src/test/factories.js';
import { describeHealth, probeHealth, watchEventLoop } from '../../src/test/health-probe.js';
import { bigFlatPng, rawPng } from '../../src/test/image-variants.js';
import {
  approvedShopkeeper,
  bearer,
  MANY_UPLOADS_ENV,
  issueLink,
  sendSignature,
  signerWithLink,
  signingSnapshot,
  uploadPhotos,
  verifiedSigner,
  widgetPhotos,
} from '../../src/test/signer.js';
import { createTestApp, type TestApp, useTestApp } from '../../src/test/test-app.js';

/**
 * Issue 26, "no request may hold a server": image decoding and PDF builds happen off the event loop,
 * each within a time bound, so /api/health keeps answering (measured over real HTTP: the app listens
 * on a port) and a runaway turns into a 503 that writes nothing.
 */
/** The event loop's promise: every health call answered within this while heavy work runs. */
const HEALTH_BUDGET_MS = 100;
/**
 * Wall-clock answers also wait for a CPU: with `npm test` running other files at once on a small
 * machine, the process itself may not be scheduled for a while. The tests measuring them run again
 * (twice at most) before failing; the event loop's own busy time (CPU, not wall) is asserted as is.
 */
const LOAD_RETRIES = { retry: 2 };

const describeLoop = (loop: ReturnType<ReturnType<typeof watchEventLoop>['stop']>) =>
  `event loop: longest busy stretch ${loop.worstBusyMs} ms of CPU, longest delay ${loop.worstDelayMs.toFixed(1)} ms`;

describe('heavy work never holds the event loop', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(MANY_UPLOADS_ENV);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => t.close());

  it(
    'the cut PNG of issue 26 answers 400 within a second while /api/health keeps answering',
    LOAD_RETRIES,
    async () => {
      const signer = await verifiedSigner(t.app);
      const before = await signingSnapshot(t.app, signer.userId);
      // The first 60 bytes of a valid 280 × 120 PNG: signature and IHDR intact, IDAT cut.
      const cut = Buffer.from(createPng({ width: 280, height: 120 })).subarray(0, 60);
      const health = await probeHealth(t.app);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      const res = await fetch(`${base}/api/v1/users/SK/${signer.userId}/contract`, {
        method: 'PUT',
        headers: { ...bearer(signer.token), 'content-type': 'application/json' },
        body: JSON.stringify({ person_type: 'titular', signature: cut.toString('base64'), metadata: '' }),
        signal: AbortSignal.timeout(5_000),
      });
      const took = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const figures = await health.stop();
      console.log(`cut PNG answered ${res.status} in ${took.toFixed(0)} ms; ${describeHealth(figures)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        issues: [{ field: 'body.signature', message: 'La firma no es una imagen PNG válida.' }],
      });
      expect(took).toBeLessThan(1_000);
      expect(figures.failures).toEqual([]);
      expect(figures.max).toBeLessThan(HEALTH_BUDGET_MS);
      expect(await signingSnapshot(t.app, signer.userId)).toEqual(before);
    },
  );

  it('a signature with no visible stroke is refused in Spanish: fully transparent, or only the background', async () => {
    const signer = await verifiedSigner(t.app);
    const before = await signingSnapshot(t.app, signer.userId);
    for (const blank of [
      rawPng(280, 120, () => [0, 0, 0, 0]),
      rawPng(280, 120, () => [255, 255, 255, 255]),
      rawPng(280, 120, (x, y) => (y < 60 ? [250, 250, 250, 255] : [250, 250, 250, 255])),
    ]) {
      const res = await sendSignature(t.app, signer, blank);
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        { field: 'body.signature', message: 'La firma está en blanco. Dibuja tu firma en el recuadro.' },
      ]);
      // The signing screen has no field to mark: the modal shows the reason itself (SPEC §8).
      expect(res.json().readable_message).toBe('La firma está en blanco. Dibuja tu firma en el recuadro.');
    }
    expect(await signingSnapshot(t.app, signer.userId)).toEqual(before);
    // A visible stroke on the same signer still signs.
    expect((await sendSignature(t.app, signer, createPng({ width: 280, height: 120 }))).statusCode).toBe(200);
  });

  it(
    'PDF builds, big signatures and 36-megapixel decodes at once: every health call within 100 ms',
    LOAD_RETRIES,
    async () => {
      const signers = await Promise.all([1, 2, 3].map(() => verifiedSigner(t.app)));
      const uploaders = await Promise.all([1, 2, 3].map(() => signerWithLink(t.app)));
      const shopkeepers = await Promise.all([1, 2].map(() => approvedShopkeeper(t.app)));
      // Made before the clock starts: compressing these is the test's own work, on this same thread.
      const bigSignature = createPng({ width: 2000, height: 2000 });
      // A 36 MP photo cut at 95%: decoded row by row up to the cut, then refused (nothing to store).
      const bomb = bigFlatPng(6000, 6000);
      const cutBomb = bomb.subarray(0, Math.floor(bomb.length * 0.95));
      const before = await Promise.all(uploaders.map((signer) => signingSnapshot(t.app, signer.userId)));
      const health = await probeHealth(t.app);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const watch = watchEventLoop();
      const started = performance.now();
      const [signed, refused, drafted] = await Promise.all([
        // 2000 × 2000 signatures: decoded, then the signed PDF built with each (pdf-lib's heaviest work).
        Promise.all(signers.map((signer) => sendSignature(t.app, signer, bigSignature))),
        // Three photos each, one of them the 36 MP cut one.
        Promise.all(uploaders.map((signer, i) => uploadPhotos(t.app, signer, { ...widgetPhotos(i), selfie: cutBomb }))),
        // Two first links: each drafts its contract PDF.
        Promise.all(shopkeepers.map((user) => issueLink(t.app, user))),
      ]);
      const took = performance.now() - started;
      const loop = watch.stop();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const figures = await health.stop();
      console.log(
        `CPU burst (3 signatures of 2000 × 2000 px with their PDFs, 3 uploads decoding a 36 MP photo, 2 contract drafts) ` +
          `in ${took.toFixed(0)} ms; ${describeHealth(figures)}; ${describeLoop(loop)}`,
      );
      expect(signed.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(refused.map((res) => res.statusCode)).toEqual(refused.map(() => 400));
      expect(drafted).toHaveLength(2);
      expect(figures.failures).toEqual([]);
      expect(loop.worstBusyMs).toBeLessThan(HEALTH_BUDGET_MS);
      expect(figures.max).toBeLessThan(HEALTH_BUDGET_MS);
      expect(await Promise.all(uploaders.map((signer) => signingSnapshot(t.app, signer.userId)))).toEqual(before);
    },
  );

  it(
    '36-megapixel photos taken and stored: the event loop never waits; health answers throughout',
    LOAD_RETRIES,
    async () => {
      const uploaders = await Promise.all([1, 2, 3].map(() => signerWithLink(t.app)));
      const photos = uploaders.map((_, i) => ({ ...widgetPhotos(i), selfie: bigFlatPng(6000, 6000) }));
      const health = await probeHealth(t.app);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const watch = watchEventLoop();
      const started = performance.now();
      const answers = await Promise.all(uploaders.map((signer, i) => uploadPhotos(t.app, signer, photos[i])));
      const took = performance.now() - started;
      const loop = watch.stop();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const figures = await health.stop();
      console.log(
        `3 uploads with a 36 MP photo (each kept as a ~1 MB JPEG) in ${took.toFixed(0)} ms; ${describeHealth(figures)}; ` +
          `${describeLoop(loop)} (${t.database.kind})`,
      );
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(figures.failures).toEqual([]);
      expect(loop.worstBusyMs).toBeLessThan(HEALTH_BUDGET_MS);
      // PGlite has one connection: health's query waits while a copy is written (~50 ms a MB since
      // bytea goes in binary format) and while libvips decodes on libuv's threads, at the event
      // loop's priority, on the same two cores: 25–93 ms alone (2026-11-30), more under the whole
      // suite's load. PostgreSQL answers it on another connection.
      if (t.database.kind === 'postgres') expect(figures.max).toBeLessThan(HEALTH_BUDGET_MS);
    },
  );
});

describe('a job over its time bound is a 503 that writes nothing', () => {
  const t = useTestApp(MANY_UPLOADS_ENV);

  /** A second server on the same database, with tighter bounds (the signers come from the first). */
  async function bounded(env: Record<string, string>) {
    return createTestApp({ ...MANY_UPLOADS_ENV, ...env }, undefined, { database: t.database });
  }

  it('a signed PDF not built within PDF_TIMEOUT_MS: 503 with Retry-After; the signer can sign afterwards', async () => {
    const signer = await verifiedSigner(t.app);
    const before = await signingSnapshot(t.app, signer.userId);
    const tight = await bounded({ PDF_TIMEOUT_MS: '1' });
    try {
      const res = await sendSignature(tight.app, signer, createPng({ width: 600, height: 200 }));
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({
        code: 'WORK_TIMEOUT',
        readable_message: 'No pudimos terminar de preparar tu documento a tiempo. Intenta de nuevo en un momento.',
      });
    } finally {
      await tight.close();
    }
    expect(await signingSnapshot(t.app, signer.userId)).toEqual(before);
    expect((await sendSignature(t.app, signer, createPng({ width: 600, height: 200 }))).statusCode).toBe(200);
  });

  it('an unsigned contract not built within PDF_TIMEOUT_MS: the link is not issued, no contract row', async () => {
    const tight = await bounded({ PDF_TIMEOUT_MS: '1' });
    try {
      const error = await signerWithLink(tight.app).catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 503, code: 'WORK_TIMEOUT' });
    } finally {
      await tight.close();
    }
  });

  it('photos not decoded within IMAGE_TIMEOUT_MS: 503, no check, no attempt spent', async () => {
    const signer = await signerWithLink(t.app);
    const before = await signingSnapshot(t.app, signer.userId);
    const tight = await bounded({ IMAGE_TIMEOUT_MS: '1' });
    try {
      const res = await uploadPhotos(tight.app, signer, { ...widgetPhotos(), selfie: bigFlatPng(6000, 6000) });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'IMAGE_TIMEOUT',
        readable_message: 'No pudimos procesar la imagen a tiempo. Intenta de nuevo en un momento.',
      });
      const signature = await sendSignature(tight.app, signer, createPng({ width: 600, height: 200 }));
      expect(signature.statusCode).toBe(503);
    } finally {
      await tight.close();
    }
    expect(await signingSnapshot(t.app, signer.userId)).toEqual(before);
    expect((await uploadPhotos(t.app, signer)).statusCode).toBe(200);
  });
});
