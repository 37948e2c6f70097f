import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PNG_SIGNATURE, pngChunk } from './test/test-images.js';
import { createContractRenderer } from './modules/signing/index.js';
import { sha256Hex } from './modules/signing/document/index.js';
import { watchEventLoop } from './test/health-probe.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

const TEST_WORKER = { source: 'test/test-worker.ts', built: 'no-such-file.js' };

/**
 * The PNG that froze the process (issue 26): a 280×120 stroke cut after 60 bytes, its IDAT unfinished.
 * In RGB: the product's RGBA signatures no longer go through pdf-lib's PNG code (decision 039), any
 * other PNG still does.
 */
function cutRgbPng(): Uint8Array {
  const [width, height, stride] = [280, 120, 1 + 280 * 3];
  const scanlines = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const x = Math.round((y / (height - 1)) * (width - 1));
    scanlines.fill(90, y * stride + 1 + x * 3, y * stride + 1 + x * 3 + 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(scanlines))]).subarray(
    0,
    60,
  );
}

/** The event loop's longest busy stretch (CPU of this thread, ms) while `work` runs. */
async function busiestStretch(work: Promise<unknown>): Promise<number> {
  const watch = watchEventLoop();
  await work.catch(() => {});
  return watch.stop().worstBusyMs;
}

describe('worker pool: CPU work off the event loop, each job within a time bound', () => {
  const pools: WorkerPool[] = [];
  const pool = (options: { threads?: number; maxWaiting?: number; timeoutMs?: number; heapMb?: number } = {}) => {
    const created = createWorkerPool(TEST_WORKER, { threads: 1, maxWaiting: 4, timeoutMs: 5_000, ...options });
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((one) => one.close()));
  });

  it('runs a job on a thread and answers its result', async () => {
    expect(await pool().run('echo', { hola: 'mundo', bytes: new Uint8Array([1, 2, 3]) })).toEqual({
      hola: 'mundo',
      bytes: new Uint8Array([1, 2, 3]),
    });
  });

  it('a runaway job is stopped at its time bound: a Spanish 503, the thread replaced, the event loop free meanwhile', async () => {
    const work = pool({ timeoutMs: 1_500 });
    await work.run('echo', 1); // the thread has started (loading TypeScript takes a moment in tests)
    const started = performance.now();
    const runaway = work.run('spin', null);
    const lag = await busiestStretch(runaway);
    const error = await runaway.catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(error).toMatchObject({
      statusCode: 503,
      code: 'WORK_TIMEOUT',
      readableMessage: 'No pudimos terminar tu solicitud a tiempo. Intenta de nuevo en un momento.',
      extra: { retry_after_seconds: 5 },
    });
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(3_000);
    expect(lag).toBeLessThan(100);
    // The pool goes on with a new thread.
    expect(await work.run('echo', 'después')).toBe('después');
  });

  it('past its waiting line a job is refused at once with a Spanish 503', async () => {
    const work = pool({ maxWaiting: 1, timeoutMs: 1_000 });
    await work.run('echo', 0); // the one thread is up
    const running = work.run('spin', null).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(work.stats).toMatchObject({ running: 1, waiting: 0, threads: 1 });
    const waiting = work.run('echo', 1).catch((e: unknown) => e);
    const refused = await work.run('echo', 2).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 503, code: 'BUSY', extra: { retry_after_seconds: 60 } });
    // The waiting job's time ran out while the runaway held the only thread.
    expect(await running).toMatchObject({ code: 'WORK_TIMEOUT' });
    expect(await waiting).toMatchObject({ code: 'WORK_TIMEOUT' });
  });

  it('a job over its thread’s heap is stopped like a runaway', async () => {
    const error = await pool({ heapMb: 32, timeoutMs: 20_000 })
      .run('hoard', null)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 503, code: 'WORK_TIMEOUT' });
  });

  it('the cut PNG that froze the process (pdf-lib’s embedPng never returns) is a 503 within the time bound', async () => {
    const renderer = createContractRenderer({ threads: 1, maxWaiting: 4, timeoutMs: 2_000 });
    try {
      const input = {
        country: 'do' as const,
        contractId: '7b0c8f0e-3c4f-4d7c-9b1e-2a9f0b1c2d3e',
        issuedAt: new Date('2026-11-23T12:00:00Z'),
        lenderName: 'Prestamista',
        titular: { name: 'María Peña', taxId: '001-0000000-1', phone: '809 555 1234', role: 'titular' as const },
        business: null,
        amount: 50_000,
        currency: 'DOP' as const,
        guarantors: [],
      };
      const unsigned = await renderer.unsigned(input);
      expect(unsigned.sha256).toBe(sha256Hex(unsigned.pdf));
      const cut = cutRgbPng();
      const evidence = {
        signedAt: new Date(),
        ip: '127.0.0.1',
        userAgent: null,
        geolocation: null,
        phoneVerifiedAt: null,
        consentFolio: null,
        verification: null,
        unsignedSha256: unsigned.sha256,
        signatureSha256: sha256Hex(cut),
      };
      const party = { slot: 0, name: 'María Peña', personType: 'titular' as const, signaturePng: cut, evidence };
      const started = performance.now();
      const runaway = renderer.signed(unsigned.pdf, [party], new Date());
      const lag = await busiestStretch(runaway);
      expect(await runaway.catch((e: unknown) => e)).toMatchObject({
        statusCode: 503,
        code: 'WORK_TIMEOUT',
        readableMessage: 'No pudimos terminar de preparar tu documento a tiempo. Intenta de nuevo en un momento.',
      });
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(lag).toBeLessThan(100);
      expect((await renderer.unsigned(input)).sha256).toBe(unsigned.sha256); // same input, same bytes
    } finally {
      await renderer.close();
    }
  });
});
