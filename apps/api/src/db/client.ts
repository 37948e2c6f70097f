import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS_DIR } from '../paths.js';
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
  close(): Promise<void>;
}

/** Arbitrary constant for the advisory lock that serialises migrations across replicas. */
const MIGRATION_LOCK_KEY = 727_001;

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir: string;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir);
}

function openPglite(dataDir: string): Database {
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = join(resolve(dataDir), 'pglite');
    mkdirSync(location, { recursive: true });
  }
  const client = new PGlite(location);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    // PGlite is one connection in this process: nothing can race the migration.
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
  };
}

function openPostgres(url: string): Database {
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
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
    close: () => client.end(),
  };
}
