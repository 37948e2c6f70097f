import { mkdirSync } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { dbPoolSize } from '../observability/metrics.js';
import { MIGRATIONS_DIR } from '../paths.js';
import { withCommitEffects } from './after-commit.js';
import { PgliteThread } from './pglite-thread.js';
import { observedPostgres } from './observed-statements.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of `Db` (what `db.transaction(async (tx) => …)` hands over). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Where a query can run: the database, or a transaction a caller opened. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Applies pending migrations; safe to run at every start and from several processes. */
  migrate(): Promise<void>;
  /**
   * Raw SQL for a library that brings its own (the job queue, decision 029): with parameters one
   * statement; without, several in one text (BEGIN; …; COMMIT). The last statement's rows.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * PostgreSQL: a `COPY (select …) TO STDOUT` as a stream of its bytes, the rows never parsed in
   * JavaScript (the back office's CSV exports, issue 35). PGlite has no COPY stream: undefined.
   */
  copyOut?(text: string): Promise<Readable>;
  /**
   * PGlite: a `COPY (select …) TO '/dev/blob'` and the bytes it wrote, all at once (the caller keeps
   * it to a page of rows). PostgreSQL streams instead (`copyOut`): undefined.
   */
  copyToBytes?(text: string): Promise<Uint8Array>;
  /** PGlite: queries sent to its thread and not answered yet (the metrics); PostgreSQL: null. */
  waiting(): number | null;
  /** PGlite only: the whole database as a tarball, for `loadDataDir` (the tests' prepared copy). */
  dump?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** The most connections one process opens to PostgreSQL (docs/OPERATIONS.md sizes max_connections by it). */
const POOL_SIZE = 10;

/** How long a new connection to PostgreSQL may take before the request fails (503). */
const CONNECT_TIMEOUT_SECONDS = 5;

/** How long closing PostgreSQL waits for open queries before it drops the connections. */
const CLOSE_TIMEOUT_SECONDS = 5;

/** Arbitrary constant for the advisory lock that serialises migrations across replicas. */
const MIGRATION_LOCK_KEY = 727_001;

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir: string;
  /** The embedded database's thread stopped on its own (the server exits: nothing can be saved). */
  onStop?: (error: Error) => void;
  /** PGlite: start from this copy (a `dump()`) instead of an empty database. */
  loadDataDir?: Uint8Array;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options);
}

function openPglite({ dataDir, onStop, loadDataDir }: DatabaseOptions): Database {
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = join(resolve(dataDir), 'pglite');
    mkdirSync(location, { recursive: true });
  }
  // On its own thread: PGlite runs each query synchronously where it lives (decision 012).
  const thread = new PgliteThread(location, { onStop, ...(loadDataDir ? { loadDataDir } : {}) });
  // Drizzle's PGlite driver calls only `query` and `transaction`, which the thread provides.
  const client = thread as unknown as PGlite;
  const db = withCommitEffects(drizzlePglite(client, { schema }) as unknown as Db);
  return {
    kind: 'pglite',
    waiting: () => thread.waiting,
    db,
    // PGlite is one connection in this process: nothing can race the migration.
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
    executeSql: (text, values) => (values?.length ? thread.query(text, values) : thread.exec(text)),
    copyToBytes: (text) => thread.copyToBytes(text),
    dump: () => thread.dump(),
    close: () => thread.close(),
  };
}

function openPostgres(url: string): Database {
  dbPoolSize.set(POOL_SIZE);
  // Each statement counted and timed, and a span of its trace while tracing is on (decision 036).
  const client = observedPostgres(
    postgres(url, {
      max: POOL_SIZE,
      onnotice: () => {},
      // While the database is unreachable (a restart, a failover), a request fails at once with a 503
      // and the next one tries again: no reconnect back-off (postgres.js's grows to 20 s, and requests
      // wait behind it, also once the database is back) and a short connect timeout (30 s by default).
      backoff: () => 0,
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
    }),
  );
  const db = withCommitEffects(drizzlePostgres(client, { schema }) as unknown as Db);
  return {
    kind: 'postgres',
    waiting: () => null,
    db,
    async migrate() {
      const lockClient = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const lockDb = drizzlePostgres(lockClient);
        await lockDb.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
        await migratePostgres(lockDb, { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await lockClient.end();
      }
    },
    copyOut: (text) => copyOut(client, text),
    async executeSql(text, values) {
      // postgres.js's parameter types are its own (its `unsafe` takes them as they come).
      if (values?.length)
        return { rows: Array.from(await client.unsafe(text, values as postgres.ParameterOrJSON<never>[])) };
      // Several statements (the job queue's maintenance: `BEGIN; …; COMMIT`) on a connection of
      // their own: postgres.js refuses a BEGIN on a pooled one (UNSAFE_TRANSACTION), and the
      // queue's supervision (expiring jobs whose worker died, archiving) never ran on PostgreSQL.
      const reserved = await client.reserve();
      try {
        return { rows: Array.from(await reserved.unsafe(text).simple()) };
      } finally {
        reserved.release();
      }
    },
    // With a timeout: after the server cut a connection under a query, postgres.js's end() without
    // one never resolves (porsager/postgres#1097), and a graceful stop would hang for good. The app
    // has finished its requests and jobs by then; what is still open gets 5 s.
    close: () => client.end({ timeout: CLOSE_TIMEOUT_SECONDS }),
  };
}

/**
 * A COPY TO STDOUT's bytes as a stream the reader may destroy at any time. Two things postgres.js
 * 3.4 gets wrong with a COPY's stream, each of which leaves the connection busy for good:
 * - it pauses the socket while its stream is full and resumes it only when the stream is read
 *   again; when the stream's end arrived in the socket chunk that paused it, nothing reads the
 *   stream again and the COPY's closing messages are never read (a slow reader, such as a
 *   compressed download, met it in `npm run perf:backoffice`). So the stream's read is called once
 *   more at its end, which resumes the socket;
 * - once its stream is destroyed it never reads the socket again. So its stream is piped into ours,
 *   and when ours closes first, what the server still sends is read and dropped until the COPY ends
 *   (its `cancel()` acts only on a query that has not answered yet, and a COPY has answered with its
 *   stream). An export is one range's rows, ~15 MB at 100,000 applications: ~0.2 s of reading.
 */
async function copyOut(client: postgres.Sql, text: string): Promise<Readable> {
  const source = await client.unsafe(text).readable();
  source.on('end', () => source._read(0));
  const out = new PassThrough();
  source.on('error', (error) => out.destroy(error));
  source.pipe(out);
  out.on('close', () => {
    if (source.readableEnded || source.destroyed) return;
    source.unpipe(out);
    source.resume();
  });
  return out;
}
