import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { prepareDatabase } from '../prepare-database.js';
import type { App } from '../types.js';

let template: Promise<Uint8Array> | undefined;
/** The prepared database of the suite's global setup (pglite-template.ts), when there is one. */
async function pgliteTemplate(): Promise<{ loadDataDir?: Uint8Array }> {
  const file = inject('pgliteTemplate');
  if (!file) return {};
  template ??= readFile(file);
  return { loadDataDir: await template };
}

/**
 * The database a test file runs on: TEST_DB=postgres gives each file its own throw-away
 * database on the server of DATABASE_URL, anything else a fresh in-memory PGlite.
 */
export async function createTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres') {
    const database = openDatabase({ dataDir: 'memory://', ...(await pgliteTemplate()) });
    await prepareDatabase(database);
    return { database, drop: () => database.close() };
  }
  if (!serverUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `provee_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
  await prepareDatabase(database);
  return {
    database,
    async drop() {
      await database.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

export interface TestApp {
  app: App;
  database: Database;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The job kinds no worker of a test app runs unless the test says (JOB_KINDS_OFF): tests drive them. */
export const HAND_DRIVEN_JOB_KINDS =
  'bureau-query,bureau-consent-audit,remote-consent,identity-simulated-answer,retention-schedule,reminders,contract-seal-completion,contract-seal-sweep';

/** A clock a test moves by hand. */
export function manualClock(start = new Date('2026-11-21T12:00:00Z')) {
  let now = start.getTime();
  const clock = () => new Date(now);
  clock.advance = (seconds: number) => {
    now += seconds * 1000;
  };
  return clock;
}

export async function createTestApp(
  env: Record<string, string> = {},
  /** Extra routes a test needs, added before the app is ready. */
  setup?: (app: App) => void,
  options: Omit<BuildOptions, 'logStream'> & { database?: Database } = {},
): Promise<TestApp> {
  const { database, drop } = options.database
    ? { database: options.database, drop: async () => {} }
    : await createTestDatabase();
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    // Every request's line, so that the checks that nothing secret is logged see them all.
    LOG_READ_SAMPLE: '1',
    WEB_DIST_DIR: '/nonexistent',
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    // Tests drive the bureau's, the remote consents', the identity simulator's and the retention
    // schedule's jobs by hand (src/test/jobs.ts) on their own clock; the SMS go out at once, as in
    // production.
    JOB_KINDS_OFF: HAND_DRIVEN_JOB_KINDS,
    BUREAU_LATENCY_MS: '0',
    // A test shares its event loop with vitest, whose module loading blocks it for seconds: shedding
    // by event-loop delay would refuse the tests' own requests. It is tested on (health/probes.test.ts),
    // and the built server of the e2e and reliability suites runs with the defaults.
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const app = await buildApp(config, database, { ...options, logStream });
  setup?.(app);
  await app.ready();
  return {
    app,
    database,
    logs,
    async close() {
      await app.close();
      await drop();
    },
  };
}

/**
 * The app of a `describe` block: created before its first test (same arguments as `createTestApp`)
 * and closed after its last. Read `t.app`, `t.database` and `t.logs` inside hooks and tests only.
 */
export function useTestApp(...args: Parameters<typeof createTestApp>): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(...args);
  });
  afterAll(() => current?.close());
  const started = () => {
    if (!current) throw new Error('the test app is created in beforeAll: use it inside a hook or a test');
    return current;
  };
  return {
    get app() {
      return started().app;
    },
    get database() {
      return started().database;
    },
    get logs() {
      return started().logs;
    },
    close: () => started().close(),
  };
}

/** Runs `use` against an app of its own (created with `env`), closed afterwards even when `use` throws. */
export async function withTestApp<T>(env: Record<string, string>, use: (t: TestApp) => Promise<T>): Promise<T> {
  const t = await createTestApp(env);
  try {
    return await use(t);
  } finally {
    await t.close();
  }
}
