import type { PrivacyRequestKind, PrivacyRequestState } from '@provee/domain';
import { OPEN_PRIVACY_REQUEST_STATES } from '@provee/domain';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { privacyRequests, users } from '../../db/schema.js';
import { isErasedPhone } from '../application/index.js';

export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;

export interface NewPrivacyRequest {
  applicationId: string;
  kind: PrivacyRequestKind;
  reason: string;
  field: string | null;
  country: string;
  deadline: string;
  createdAt: Date;
}

/**
 * The folio comes from a sequence in the same statement, so two requests filed at once never share
 * one: ARCO-<year>-<six digits or more>. Undefined when the person already has an open request of
 * this kind (the partial unique index answers, whatever tab filed first).
 */
export async function insertPrivacyRequest(
  db: Executor,
  values: NewPrivacyRequest,
): Promise<PrivacyRequestRow | undefined> {
  const year = values.createdAt.getUTCFullYear();
  const folio = sql<string>`(select 'ARCO-' || ${String(year)} || '-' || lpad(n::text, greatest(6, length(n::text)), '0')
    from (select nextval('privacy_request_folio_seq') as n) as next_folio)`;
  const [row] = await db
    .insert(privacyRequests)
    .values({ ...values, folio })
    .onConflictDoNothing({
      target: [privacyRequests.applicationId, privacyRequests.kind],
      where: sql`${privacyRequests.state} in ('RECEIVED', 'IN_PROGRESS')`,
    })
    .returning();
  return row;
}

export async function findPrivacyRequest(db: Executor, id: string): Promise<PrivacyRequestRow | undefined> {
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, id));
  return row;
}

/** A person's requests, newest first. */
export async function listApplicationRequests(db: Executor, applicationId: string): Promise<PrivacyRequestRow[]> {
  return db
    .select()
    .from(privacyRequests)
    .where(eq(privacyRequests.applicationId, applicationId))
    .orderBy(desc(privacyRequests.createdAt));
}

/** The staff queue: by deadline (the most overdue first), then by arrival. */
export async function listQueue(db: Executor, openOnly: boolean): Promise<PrivacyRequestRow[]> {
  return db
    .select()
    .from(privacyRequests)
    .where(openOnly ? inArray(privacyRequests.state, [...OPEN_PRIVACY_REQUEST_STATES]) : undefined)
    .orderBy(asc(privacyRequests.deadline), asc(privacyRequests.createdAt))
    .limit(500);
}

/**
 * Moves a request from one of `from` to `to`, guarded like the step engine's update: zero rows
 * means another member of staff answered it meanwhile (the caller turns that into a 409).
 */
export async function moveRequest(
  db: Executor,
  id: string,
  from: readonly PrivacyRequestState[],
  set: {
    state: PrivacyRequestState;
    decidedAt?: Date;
    decidedBy?: string;
    refusalReason?: string;
    resolution?: string;
  },
): Promise<PrivacyRequestRow | undefined> {
  const [row] = await db
    .update(privacyRequests)
    .set(set)
    .where(and(eq(privacyRequests.id, id), inArray(privacyRequests.state, [...from])))
    .returning();
  return row;
}

/**
 * The application's users row, locked before any answer touches its request: the retention job's
 * erasure locks users and then writes privacy_requests, so staff take the locks in the same order
 * (users, then privacy_requests) and the two wait for each other instead of deadlocking.
 * Undefined when there is no such application.
 */
export async function lockRequestApplication(tx: Executor, applicationId: string) {
  const [row] = await tx
    .select({ phoneE164: users.phoneE164 })
    .from(users)
    .where(eq(users.id, applicationId))
    .for('update');
  return row && { erased: isErasedPhone(row.phoneE164) };
}
