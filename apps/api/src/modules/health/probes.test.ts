// Issue 32: liveness and readiness for a balancer, and load shedding by the Fastify team's
// under-pressure plugin. Both databases (the api projects); a restarted PostgreSQL on PostgreSQL.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { privatePostgres, type PrivatePostgres } from '../../../../../scripts/reliability/harness.mjs';
import { openDatabase } from '../../db/client.js';
import { resultRows } from '../../db/rows.js';
import { dbStatementDuration } from '../../observability/metrics.js';
import { createTestApp, useTestApp, type TestApp } from '../../test/test-app.js';

/** Blocks the event loop for `ms`. */
function blockEventLoop(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * An overloaded process: the loop blocked 100 ms at a time, free a moment between, until the plugin
 * sees it (its delay is a mean over a second, so one long block among many short turns would not).
 */
async function overload(app: { isUnderPressure(): boolean }) {
  const until = performance.now() + 5_000;
  while (!app.isUnderPressure() && performance.now() < until) {
    blockEventLoop(100);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('/livez and /readyz', () => {
  const t = useTestApp();

  it('live and ready: the database answers, every migration is applied, the queue runs, no pressure', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', jobs: 'ok', load: 'ok' },
    });
    // The old health check stays for what already calls it.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('a flood of /readyz calls shares one read of the database at a time', async () => {
    const selects = async () =>
      (await dbStatementDuration.get()).values
        .filter((value) => value.metricName?.endsWith('_count') && value.labels.operation === 'SELECT')
        .reduce((sum, value) => sum + value.value, 0);
    const before = await selects();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.app.inject({ method: 'GET', url: '/readyz' })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(50).fill(200));
    // One read for the fifty (a few more if the queue polled meanwhile), not fifty.
    expect(await selects()).toBeLessThan(before + 10);
  });

  it('a migration this build ships but the database lacks: not ready, in Spanish, until it is applied', async () => {
    const own = await createTestApp();
    try {
      // As a database the previous build migrated: its record of the newest migration is not there.
      const [removed] = resultRows<{ id: number; hash: string; created_at: string }>(
        await own.app.db.execute(sql`delete from drizzle.__drizzle_migrations
          where created_at = (select max(created_at) from drizzle.__drizzle_migrations)
          returning id, hash, created_at::text as created_at`),
      );
      const res = await own.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({
        code: 'NOT_READY',
        readable_message: 'El servicio no está disponible por el momento. Intenta de nuevo en unos segundos.',
        checks: { database: 'ok', migrations: 'pending', jobs: 'ok', load: 'ok' },
      });
      // The process that migrates records it (its SQL is there already: only the record is put back).
      await own.app.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at)
        values (${removed!.id}, ${removed!.hash}, ${removed!.created_at}::bigint)`);
      expect((await own.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('a stopping process is not ready (its queue no longer runs)', async () => {
    const own = await createTestApp();
    try {
      await own.app.jobs.stop();
      const res = await own.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ database: 'ok', migrations: 'ok', jobs: 'not running', load: 'ok' });
    } finally {
      await own.close();
    }
  });
});

describe('load shedding', () => {
  const t = useTestApp({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '50', PRESSURE_RETRY_AFTER_SECONDS: '7' });

  it('past the event-loop delay every request is a Spanish 503 with Retry-After; /livez answers; /readyz says shedding; then it recovers', async () => {
    await vi.waitFor(() => expect(t.app.isUnderPressure()).toBe(false), { timeout: 5_000 });
    await overload(t.app);
    expect(t.app.isUnderPressure()).toBe(true);

    const shed = await t.app.inject({ method: 'GET', url: '/api/v1/business-types' });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('7');
    expect(shed.json()).toEqual({
      code: 'BUSY',
      message: 'server under pressure',
      readable_message: 'Hay muchas solicitudes en este momento. Intenta de nuevo en unos segundos.',
      retry_after_seconds: 7,
    });
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.load).toBe('shedding');

    // The next samples of an idle loop lift it.
    await vi.waitFor(() => expect(t.app.isUnderPressure()).toBe(false), { timeout: 5_000, interval: 50 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/business-types' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('load shedding spares the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'provee-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<html><head><!--app-config--></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'export const app = 1;');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ WEB_DIST_DIR: dist, PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '50' });
  });
  afterAll(() => t.close());

  it("under pressure the app's pages, chunks and public files are still sent; the API's calls are refused", async () => {
    await vi.waitFor(() => expect(t.app.isUnderPressure()).toBe(false), { timeout: 5_000 });
    await overload(t.app);
    expect(t.app.isUnderPressure()).toBe(true);
    // A refused chunk would break the screen that asked for it; a refused page would show raw JSON.
    for (const url of ['/home', '/8095551234/about-you', '/assets/app-1a2b3c.js', '/favicon.svg'])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    for (const [method, url] of [
      ['GET', '/api/v1/business-types'],
      ['POST', '/api/v1/users'],
      ['POST', '/home'],
    ] as const)
      expect((await t.app.inject({ method, url, payload: {} })).json(), `${method} ${url}`).toMatchObject({
        code: 'BUSY',
      });
  });
});

// /readyz follows the database: a private PostgreSQL cluster (never the machine's main one, which
// the other tests use) is stopped and started under a running app, which is not restarted.
// PostgreSQL only (PGlite has no server to restart): it runs in the api-postgres project.
if (process.env.TEST_DB === 'postgres')
  describe('/readyz while PostgreSQL restarts', () => {
    let cluster: PrivatePostgres | undefined;
    let t: TestApp | undefined;
    beforeAll(async () => {
      cluster = await privatePostgres();
      const database = openDatabase({ databaseUrl: cluster.url, dataDir: 'unused' });
      await database.migrate();
      t = await createTestApp({}, undefined, { database });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await t?.database.close();
      cluster?.remove();
    });

    it('is 503 (database unreachable) while it is down and 200 once it is back', async () => {
      const readyz = () => t!.app.inject({ method: 'GET', url: '/readyz' });
      expect((await readyz()).statusCode).toBe(200);

      await cluster!.stop('fast');
      const started = performance.now();
      const down = await readyz();
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ code: 'NOT_READY', checks: { database: 'unreachable' } });
      // Liveness is the process, not its database: a balancer stops sending work, nobody restarts it.
      expect((await t!.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);

      await cluster!.start();
      await vi.waitFor(async () => expect((await readyz()).statusCode).toBe(200), { timeout: 20_000, interval: 200 });
      expect((await readyz()).json().checks).toEqual({ database: 'ok', migrations: 'ok', jobs: 'ok', load: 'ok' });
    }, 60_000);
  });
