import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { enqueueJob, openJobRowIds, type JobKind } from '../jobs/index.js';
import { listOpenBureauQueries, markGivenUpQueryDue } from './bureau-queries.store.js';
import { listOpenConsentAudits } from './consent-audits.store.js';

/**
 * The bureau's leased rows (its queries, the consent audits it is owed) keep their own schedule
 * (`next_attempt_at`, the bureau's back-off) and their claim; the job queue runs them (decision
 * 030). Each change that makes a row due at a time enqueues, in its transaction, the job of that
 * time: so a crash between the commit and the attempt loses nothing.
 */
export const BUREAU_QUERY_JOB = 'bureau-query';
export const CONSENT_AUDIT_JOB = 'bureau-consent-audit';

/** A job of one due time of a row: the row's id and the `next_attempt_at` it was enqueued for. */
export interface DueRowJob {
  id: string;
  due_at: string;
}

/** How long an attempt holds its row: the bureau's time limit and 5 s to record the outcome. */
export const attemptLeaseMs = (config: Pick<Config, 'BUREAU_TIMEOUT_MS'>) => config.BUREAU_TIMEOUT_MS + 5_000;

/** The job that tries the row due at `dueAt`, held back `startAfterSeconds` (the wait until then). */
export async function scheduleAttempt(
  tx: Executor,
  kind: typeof BUREAU_QUERY_JOB | typeof CONSENT_AUDIT_JOB,
  id: string,
  dueAt: Date,
  startAfterSeconds: number,
): Promise<void> {
  await enqueueJob<DueRowJob>(tx, kind, { id, due_at: dueAt.toISOString() }, { startAfterSeconds });
}

/** A job that is tried again by the queue: the row is held by another attempt, or not quite due. */
export class RowNotYetDue extends Error {
  constructor() {
    super('la fila está tomada por otro intento o aún no vence: se intenta de nuevo');
    this.name = 'RowNotYetDue';
  }
}

/**
 * What a job does with a row it could not claim: nothing when the row is finished or another job
 * owns the time it is due now; otherwise it throws, so the queue tries again later. A row held by
 * an attempt is watched that way until the attempt ends (its own failure enqueues the next job) or
 * its lease runs out (its process died: this job claims it); a job a moment early by this
 * process's clock claims it on its next try.
 */
export function afterUnclaimed(row: { status: string; nextAttemptAt: Date } | undefined, job: DueRowJob): void {
  if (!row || !['PENDING', 'RUNNING'].includes(row.status)) return;
  if (row.status === 'PENDING' && row.nextAttemptAt.toISOString() !== job.due_at) return;
  throw new RowNotYetDue();
}

/**
 * An analyst's retry of the application's query given up after its attempts: due again at once
 * (the attempt count goes on), with its job; the caller wakes the queue after its commit.
 * Undefined when no query is given up.
 */
export async function retryGivenUpBureauQuery(tx: Executor, userId: string, now: Date) {
  const row = await markGivenUpQueryDue(tx, userId, now);
  if (row) await scheduleAttempt(tx, BUREAU_QUERY_JOB, row.id, now, 0);
  return row;
}

/** An open row: waiting for its attempt at `nextAttemptAt`, or held by one until `lockedUntil`. */
interface OpenRow {
  id: string;
  status: string;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
}

/** Each open row without a job of its kind gets one: at its time, or once its holder's lease is over. */
async function adopt(db: Db, kind: typeof BUREAU_QUERY_JOB | typeof CONSENT_AUDIT_JOB, rows: OpenRow[], now: Date) {
  if (rows.length === 0) return 0;
  const owned = await openJobRowIds(db, kind);
  const orphans = rows.filter((row) => !owned.has(row.id));
  for (const row of orphans) {
    const runsAt = row.status === 'RUNNING' && row.lockedUntil ? row.lockedUntil : row.nextAttemptAt;
    const wait = Math.max(0, (runsAt.getTime() - now.getTime()) / 1000);
    await db.transaction((tx) => scheduleAttempt(tx, kind, row.id, row.nextAttemptAt, wait));
  }
  return orphans.length;
}

/**
 * The safety net of the bureau's rows, on the queue's schedule: a query or audit left without a
 * job (written before the queue ran them, or whose job's own tries ran out) gets one again.
 */
export function bureauJobsSweep(deps: { db: Db; clock: () => Date }): JobKind<object> {
  return {
    name: 'bureau-jobs-sweep',
    cron: '*/10 * * * *',
    retryLimit: 2,
    expireInSeconds: 120,
    async run() {
      const now = deps.clock();
      await adopt(deps.db, BUREAU_QUERY_JOB, await listOpenBureauQueries(deps.db), now);
      await adopt(deps.db, CONSENT_AUDIT_JOB, await listOpenConsentAudits(deps.db), now);
    },
  };
}
