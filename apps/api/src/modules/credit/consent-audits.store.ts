import { CONSENT_AUDIT_TRANSITIONS } from '@provee/domain';
import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { bureauConsentAudits } from '../../db/schema.js';
import { statusMoves } from '../../db/status-move.js';
import { applicationNotErased } from '../privacy/index.js';

/**
 * The consent's evidence owed to a bureau that audits it (Círculo's NIP audit): one per answered
 * query, written in the query's transaction, retried with back-off until acknowledged. Its status
 * moves only here, through CONSENT_AUDIT_TRANSITIONS (packages/domain).
 */
export type ConsentAuditRow = typeof bureauConsentAudits.$inferSelect;

const move = statusMoves(bureauConsentAudits.status, CONSENT_AUDIT_TRANSITIONS);

/** The audit a query's answer owes, due at once: its id (undefined when the query has one already). */
export async function insertConsentAudit(
  tx: Executor,
  values: { queryId: string; userId: string; at: Date },
): Promise<string | undefined> {
  const [row] = await tx
    .insert(bureauConsentAudits)
    .values({ ...values, status: 'PENDING', nextAttemptAt: values.at, createdAt: values.at, updatedAt: values.at })
    .onConflictDoNothing({ target: bureauConsentAudits.queryId })
    .returning({ id: bureauConsentAudits.id });
  return row?.id;
}

/** The audits not ended (waiting for an attempt, or held by one), with their time and lease. */
export async function listOpenConsentAudits(db: Executor) {
  return db
    .select({
      id: bureauConsentAudits.id,
      status: bureauConsentAudits.status,
      nextAttemptAt: bureauConsentAudits.nextAttemptAt,
      lockedUntil: bureauConsentAudits.lockedUntil,
    })
    .from(bureauConsentAudits)
    .where(
      and(
        inArray(bureauConsentAudits.status, ['PENDING', 'RUNNING']),
        applicationNotErased(bureauConsentAudits.userId),
      ),
    );
}

/** An audit by id. */
export async function findConsentAudit(db: Executor, id: string): Promise<ConsentAuditRow | undefined> {
  return firstRow(db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.id, id)));
}

const due = (now: Date) =>
  or(
    and(eq(bureauConsentAudits.status, 'PENDING'), lte(bureauConsentAudits.nextAttemptAt, now)),
    and(eq(bureauConsentAudits.status, 'RUNNING'), lt(bureauConsentAudits.lockedUntil, now)),
  );

/** Takes a due audit for one attempt, leased until `lockedUntil`; undefined when it is not due. */
export async function claimConsentAudit(db: Executor, id: string, now: Date, lockedUntil: Date) {
  const { status, guard } = move('claimed', 'RUNNING');
  return returnedRow(
    db
      .update(bureauConsentAudits)
      .set({ status, lockedUntil, updatedAt: now })
      .where(and(eq(bureauConsentAudits.id, id), guard, due(now)))
      .returning(),
  );
}

const heldBy = (claim: ConsentAuditClaim) =>
  claim.lockedUntil ? eq(bureauConsentAudits.lockedUntil, claim.lockedUntil) : isNull(bureauConsentAudits.lockedUntil);

/** The claim an attempt holds: the audit, and the lease it was given. */
export type ConsentAuditClaim = Pick<ConsentAuditRow, 'id' | 'lockedUntil'>;

/**
 * The end of a running attempt: its lease is given back with the attempt's outcome. False when the
 * attempt no longer holds the audit (its lease ran out and another attempt took it, or it ended).
 */
function endAttempt(
  tx: Executor,
  claim: ConsentAuditClaim,
  { status, guard }: ReturnType<typeof move>,
  outcome: Pick<ConsentAuditRow, 'attempts' | 'lastError' | 'updatedAt'> &
    Partial<Pick<ConsentAuditRow, 'auditFolio' | 'nextAttemptAt'>>,
): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(bureauConsentAudits)
      .set({ status, lockedUntil: null, ...outcome })
      .where(and(eq(bureauConsentAudits.id, claim.id), heldBy(claim), guard))
      .returning({ id: bureauConsentAudits.id }),
  );
}

/** The bureau acknowledged the evidence with its folio. False when the audit was not running. */
export function markConsentAuditAcknowledged(
  tx: Executor,
  claim: ConsentAuditClaim,
  values: { attempts: number; auditFolio: string; at: Date },
): Promise<boolean> {
  const { attempts, auditFolio, at } = values;
  return endAttempt(tx, claim, move('acknowledged', 'DONE'), { attempts, auditFolio, lastError: null, updatedAt: at });
}

/** The attempt failed: tried again at `nextAttemptAt`, or refused as sent (REFUSED). False when it was not running. */
export function markConsentAuditFailed(
  tx: Executor,
  claim: ConsentAuditClaim,
  values: { refused: boolean; attempts: number; nextAttemptAt: Date; lastError: string; at: Date },
): Promise<boolean> {
  const { attempts, nextAttemptAt, lastError, at } = values;
  return endAttempt(tx, claim, move('failed', values.refused ? 'REFUSED' : 'PENDING'), {
    attempts,
    nextAttemptAt,
    lastError,
    updatedAt: at,
  });
}

/** An application's consent audits (the back office). */
export function listConsentAuditsOf(db: Executor, userId: string): Promise<ConsentAuditRow[]> {
  return db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, userId));
}
