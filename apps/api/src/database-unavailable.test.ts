import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.js';
import { isDatabaseUnavailable } from './errors.js';
import { codeRequest, createPhone } from './test/phone.js';
import { createTestApp, type TestApp } from './test/test-app.js';

/**
 * Issue 13, suite 6 found it: while PostgreSQL restarted, every request answered 500
 * INTERNAL_ERROR. A database that cannot be reached is a 503 with the envelope and a Spanish
 * message (the request may be repeated), and the server recovers by itself once it is back.
 */
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('errors that mean the database is unreachable', () => {
  it('are connection errors of the driver, the socket or the server, also wrapped by Drizzle', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('CONNECTION_CLOSED'),
      withCode('CONNECTION_ENDED'),
      withCode('CONNECT_TIMEOUT'),
      new DrizzleQueryError('select 1', [], withCode('57P01', 'terminating connection due to administrator command')),
      new DrizzleQueryError('select 1', [], withCode('57P03', 'the database system is starting up')),
      new DrizzleQueryError('select 1', [], withCode('08006')),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ])
      expect(isDatabaseUnavailable(error), String((error as { code?: string }).code ?? error.message)).toBe(true);
  });

  it('are not what a wrong query or a refused value gives', () => {
    for (const error of [
      new Error('boom'),
      new DrizzleQueryError('insert …', [], withCode('23505')),
      new DrizzleQueryError('select …', [], withCode('22P02')),
      new DrizzleQueryError('select …', [], withCode('42601')),
      'not an error',
    ])
      expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a database server that refuses connections', () => {
  let t: TestApp;
  beforeAll(async () => {
    const database = openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/provee_unreachable`,
      dataDir: 'unused',
    });
    t = await createTestApp({}, undefined, { database });
  });
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  it('answers 503 with the envelope and a Spanish message, at once, and health says the database is down', async () => {
    const started = Date.now();
    const res = await t.app.inject(codeRequest(createPhone(), '10.70.0.1'));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      code: 'DB_UNAVAILABLE',
      message: 'Base de datos no disponible.',
      readable_message: 'El servicio no está disponible por el momento. Intenta de nuevo en unos minutos.',
    });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json().code).toBe('DB_UNAVAILABLE');
    expect(t.logs.some((line) => line.msg === 'database unavailable')).toBe(true);
    expect(t.logs.some((line) => line.msg === 'unexpected error')).toBe(false);
  });

  it('keeps answering at once, request after request (no reconnect back-off to wait behind)', async () => {
    // postgres.js's default back-off grows with each failed connection (0.8 s at the 5th, 20 s
    // from the 8th) and a connection waits it before its next try: past the pool's 10 fresh
    // connections, requests queued behind it while the database was down, and after it came back.
    const took: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/business-types' });
      took.push(Date.now() - started);
      expect(res.statusCode).toBe(503);
    }
    expect(Math.max(...took)).toBeLessThan(1_000);
  }, 60_000);
});

// PostgreSQL only (PGlite has no server to end connections): it runs in the api-postgres project.
if (process.env.TEST_DB === 'postgres')
  describe('PostgreSQL ending the connections (admin shutdown)', () => {
    let t: TestApp;
    const admin = postgres(process.env.DATABASE_URL ?? 'postgres://unused', { max: 1, onnotice: () => {} });
    beforeAll(async () => {
      t = await createTestApp({}, (app) => {
        app.get('/api/test/slow-query', async () => {
          await app.db.execute(sql`select pg_sleep(10)`);
          return { ok: true };
        });
      });
    });
    afterAll(async () => {
      await t.close();
      await admin.end();
    });

    it('a query cut by the server is a 503, the next request works without a restart, and closing does not hang', async () => {
      const rows = (await t.app.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
      const name = rows[0]!.name;
      const slow = t.app.inject({ method: 'GET', url: '/api/test/slow-query' });
      // What `pg_ctl stop -m fast` does to every backend: 57P01 admin_shutdown.
      for (let i = 0; i < 100; i++) {
        const ended = await admin`
        select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = ${name} and query like '%pg_sleep%' and pid <> pg_backend_pid()`;
        if (ended.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const res = await slow;
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('DB_UNAVAILABLE');
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

      // The graceful stop (server.ts: app.close, then database.close) used to wait forever here.
      await t.app.close();
      const started = Date.now();
      await t.database.close();
      expect(Date.now() - started).toBeLessThan(10_000);
    }, 30_000);
  });
