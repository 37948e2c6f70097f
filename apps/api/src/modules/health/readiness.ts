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
    database: 'ok',
    migrations: 'ok',
    jobs: state.jobsRunning ? 'ok' : 'not running',
    load: state.underPressure ? 'shedding' : 'ok',
  };
  try {
    const [row] = resultRows<{ newest: string | number | null }>(
      await withTimeout(
        db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`),
        DATABASE_CHECK_MS,
      ),
    );
    if (Number(row?.newest ?? 0) < NEWEST_MIGRATION) checks.migrations = 'pending';
  } catch {
    checks.database = 'unreachable';
    checks.migrations = 'unknown';
  }
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}
