import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { resultRows } from '../../db/rows.js';
import { MIGRATIONS_DIR } from '../../paths.js';
import { withTimeout } from '../../with-timeout.js';

/** Each thing a process needs before a balancer sends it work: `ok`, or why not. */
export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; jobs: string; load: string };
}

/** The newest migration this build ships: its folder time, which Drizzle records once applied. */
const NEWEST_MIGRATION: number = (() => {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
})();

/** How long the database may take to answer before the process is not ready. */
const DATABASE_CHECK_MS = 2_000;

type DatabaseCheck = Pick<Readiness['checks'], 'database' | 'migrations'>;

/** The database's check under way, which every /readyz call arriving meanwhile shares. */
const checking = new WeakMap<Executor, Promise<DatabaseCheck>>();

/**
 * The database answers within 2 s and holds every migration of this build. /readyz is public and
 * unlimited: however often it is asked, each process has at most one of these reads running.
 */
function checkDatabase(db: Executor): Promise<DatabaseCheck> {
  let check = checking.get(db);
  if (!check) {
    check = readDatabase(db).finally(() => checking.delete(db));
    checking.set(db, check);
  }
  return check;
}

async function readDatabase(db: Executor): Promise<DatabaseCheck> {
  try {
    const [row] = resultRows<{ newest: string | number | null }>(
      await withTimeout(
        db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`),
        DATABASE_CHECK_MS,
      ),
    );
    return { database: 'ok', migrations: Number(row?.newest ?? 0) < NEWEST_MIGRATION ? 'pending' : 'ok' };
  } catch {
    return { database: 'unreachable', migrations: 'unknown' };
  }
}

/**
 * Whether this process can take work: the database answers, every migration of this build is
 * applied (during a deploy a new process waits for the one that migrates), the job queue runs, and
 * the process is not shedding load. Each check answers for itself, so an operator reads which failed.
 */
export async function checkReadiness(
  db: Executor,
  state: { jobsRunning: boolean; underPressure: boolean },
): Promise<Readiness> {
  const checks: Readiness['checks'] = {
    ...(await checkDatabase(db)),
    jobs: state.jobsRunning ? 'ok' : 'not running',
    load: state.underPressure ? 'shedding' : 'ok',
  };
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}
