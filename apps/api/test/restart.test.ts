import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { INITIAL_DATABASE_DIR } from '../src/db/initial-database.js';
import { appendAuditEvent, verifyAuditChain } from '../src/modules/audit/audit.service.js';
import { MIGRATIONS_DIR } from '../src/paths.js';
import { SERVER_JS as serverJs, startBuiltServer, stopServer } from './built-server.js';

const startServer = (dataDir: string) => startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
const kill = (child: ChildProcess) => stopServer(child);

describe('first start on PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-first-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('begins from the database the build prepared: the catalogue is served at once, not seeded again', async () => {
    expect(existsSync(join(INITIAL_DATABASE_DIR, 'pglite', 'PG_VERSION')), 'run npm run build first').toBe(true);
    const started = new Date();
    const clock = performance.now();
    const server = await startServer(dataDir);
    const ms = performance.now() - clock;
    const served = (await (await fetch(`${server.url}/api/v1/cities?only-allowed=true`)).json()) as { data: unknown[] };
    expect(served.data.length).toBeGreaterThan(0);
    await kill(server.child);
    console.log(`first start from the built database: ${ms.toFixed(0)} ms to the first /api/health 200`);

    // The catalogue was loaded when the build prepared the database, before this start.
    const database = openDatabase({ dataDir });
    try {
      const [seed] = (
        await database.db.execute<{ loaded_at: string }>(sql`select loaded_at from catalog_seeds where name = 'do'`)
      ).rows;
      expect(new Date(seed!.loaded_at).getTime()).toBeLessThan(started.getTime());
    } finally {
      await database.close();
    }
  });
});

// The built server (npm run build) on the embedded database: killed without warning and started again.
describe('built server on PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates its data dir on first start and keeps the data across a kill and restart', async () => {
    expect(existsSync(serverJs), 'run npm run build first').toBe(true);
    rmSync(dataDir, { recursive: true, force: true });

    const first = await startServer(dataDir);
    expect(await (await fetch(`${first.url}/api/health`)).json()).toEqual({ status: 'ok', db: 'pglite' });
    await kill(first.child);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);

    // Write while the server is down (PGlite is single-process), then bring the server back.
    const database = openDatabase({ dataDir });
    await appendAuditEvent(database.db, {
      applicationId: 'restart',
      actor: 'system',
      type: 'test.written',
      payload: {},
      at: new Date(),
    });
    await database.close();

    const second = await startServer(dataDir);
    const res = await fetch(`${second.url}/ops/v1/audit/restart`, {
      headers: { 'x-api-key': 'provee-dev-ops-key-not-for-production' },
    });
    const body = await res.json();
    await kill(second.child);
    expect(body.data.chain).toEqual({ valid: true, events: 1 });

    // The second start found the migrations applied and did not apply them again.
    const reopened = openDatabase({ dataDir });
    const migrations = await reopened.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(await verifyAuditChain(reopened.db, 'restart')).toEqual({ valid: true, events: 1 });
    await reopened.close();
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect(JSON.stringify(migrations)).toContain(`"n":${journal.entries.length}`);
  }, 60_000);
});
