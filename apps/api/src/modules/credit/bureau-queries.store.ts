import { BUREAU_QUERY_INITIAL_STATUS, BUREAU_QUERY_TRANSITIONS } from '@provee/domain';
import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { bureauQueries } from '../../db/schema.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { statusMoves } from '../../db/status-move.js';
import { applicationNotErased } from '../privacy/index.js';

/**
 * One bureau query per consent, retried with back-off until it answers. Its status moves only here,
 * through a row of BUREAU_QUERY_TRANSITIONS (packages/domain), each a guarded update from the
 * transition's starting statuses: zero rows means another process moved it first.
 */
export type BureauQueryRow = typeof bureauQueries.$inferSelect;

/** The status change of `transition` ending in `to`, or an error for a move the table does not have. */
const move = statusMoves(bureauQueries.status, BUREAU_QUERY_TRANSITIONS);

/** A new query with its consent, due at once. */
export async function insertBureauQuery(
  tx: Executor,
  values: { userId: string; consentId: string; at: Date },
): Promise<string> {
  const [row] = await tx
    .insert(bureauQueries)
    .values({
      userId: values.userId,
      consentId: values.consentId,
      status: BUREAU_QUERY_INITIAL_STATUS,
      nextAttemptAt: values.at,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning({ id: bureauQueries.id });
  return row!.id;
}

/** Due now: waiting with its next try past, or running with its runner's lease run out. */
const due = (now: Date) =>
  or(
    and(eq(bureauQueries.status, 'PENDING'), lte(bureauQueries.nextAttemptAt, now)),
    and(eq(bureauQueries.status, 'RUNNING'), lt(bureauQueries.lockedUntil, now)),
  );

/** Takes the query for one attempt if it is due, leased until `lockedUntil`; undefined when it is not. */
export async function claimBureauQuery(
  db: Executor,
  id: string,
  now: Date,
  lockedUntil: Date,
): Promise<BureauQueryRow | undefined> {
  const { status, guard } = move('claimed', 'RUNNING');
  return returnedRow(
    db
      .update(bureauQueries)
      .set({ status, lockedUntil, updatedAt: now })
      .where(and(eq(bureauQueries.id, id), guard, due(now)))
      .returning(),
  );
}

/** The claim an attempt holds: the query, and the lease it was given (no other attempt holds the same). */
export type BureauQueryClaim = Pick<BureauQueryRow, 'id' | 'lockedUntil'>;

/** Still held by this claim: the lease it was given is the one on the row. */
const heldBy = (claim: BureauQueryClaim) =>
  claim.lockedUntil ? eq(bureauQueries.lockedUntil, claim.lockedUntil) : isNull(bureauQueries.lockedUntil);

/**
 * The end of a running attempt: its lease is given back with the attempt's outcome. False when the
 * attempt no longer holds the query (it ended, or its lease ran out and another attempt took it).
 */
function endAttempt(
  tx: Executor,
  claim: BureauQueryClaim,
  { status, guard }: ReturnType<typeof move>,
  outcome: Pick<BureauQueryRow, 'attempts' | 'lastError' | 'updatedAt'> &
    Partial<
      Pick<
        BureauQueryRow,
        'report' | 'reportRawEncrypted' | 'subjectEncrypted' | 'provider' | 'failure' | 'nextAttemptAt'
      >
    >,
): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(bureauQueries)
      .set({ status, lockedUntil: null, ...outcome })
      .where(and(eq(bureauQueries.id, claim.id), heldBy(claim), guard))
      .returning({ id: bureauQueries.id }),
  );
}

/**
 * The bureau answered: the report is kept (with the answer as received, encrypted, from a real
 * bureau) and the query ends. False when this attempt no longer holds the query.
 */
export async function markBureauQueryAnswered(
  tx: Executor,
  claim: BureauQueryClaim,
  values: {
    attempts: number;
    report: Record<string, unknown>;
    reportRawEncrypted: string | null;
    subjectEncrypted: string | null;
    provider: string;
    at: Date;
  },
): Promise<boolean> {
  const { attempts, report, reportRawEncrypted, subjectEncrypted, provider, at } = values;
  return endAttempt(tx, claim, move('answered', 'DONE'), {
    attempts,
    report,
    reportRawEncrypted,
    subjectEncrypted,
    provider,
    lastError: null,
    updatedAt: at,
  });
}

/** Why a query stops for good: every attempt failed, the bureau refused it, or its answer did not verify. */
export type BureauQueryFailure = 'exhausted' | 'refused' | 'integrity';

/**
 * The attempt failed: tried again at `nextAttemptAt` (no `failure`), or given up (FAILED, with why).
 * False when this attempt no longer holds the query.
 */
export async function markBureauQueryFailed(
  tx: Executor,
  claim: BureauQueryClaim,
  values: {
    failure: BureauQueryFailure | null;
    attempts: number;
    nextAttemptAt: Date;
    lastError: string;
    provider: string;
    at: Date;
  },
): Promise<boolean> {
  const { failure, attempts, nextAttemptAt, lastError, provider, at } = values;
  return endAttempt(tx, claim, move('failed', failure ? 'FAILED' : 'PENDING'), {
    attempts,
    nextAttemptAt,
    lastError,
    failure,
    provider,
    updatedAt: at,
  });
}

/**
 * The application's query given up after its attempts, due again at once (the attempt count goes
 * on); undefined when none is given up.
 */
export async function markGivenUpQueryDue(
  tx: Executor,
  userId: string,
  now: Date,
): Promise<Pick<BureauQueryRow, 'id' | 'lastError'> | undefined> {
  const { status, guard } = move('retried', 'PENDING');
  return returnedRow(
    tx
      .update(bureauQueries)
      .set({ status, nextAttemptAt: now, lockedUntil: null, failure: null, updatedAt: now })
      .where(and(eq(bureauQueries.userId, userId), guard))
      .returning({ id: bureauQueries.id, lastError: bureauQueries.lastError }),
  );
}

/** The queries not ended (waiting for an attempt, or held by one), with their time and lease. */
export async function listOpenBureauQueries(db: Executor) {
  return db
    .select({
      id: bureauQueries.id,
      status: bureauQueries.status,
      nextAttemptAt: bureauQueries.nextAttemptAt,
      lockedUntil: bureauQueries.lockedUntil,
    })
    .from(bureauQueries)
    .where(and(inArray(bureauQueries.status, ['PENDING', 'RUNNING']), applicationNotErased(bureauQueries.userId)));
}

/** A query by id. */
export async function findBureauQuery(db: Executor, id: string): Promise<BureauQueryRow | undefined> {
  return firstRow(db.select().from(bureauQueries).where(eq(bureauQueries.id, id)));
}
