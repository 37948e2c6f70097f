import { AVAL_INITIAL_STATUS, AVAL_TRANSITIONS, type AvalType } from '@provee/domain';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { avals, reverseOtpSessions } from '../../db/schema.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { statusMoves } from '../../db/status-move.js';

/**
 * The guarantors (avals) of each application. Their status moves only here, through a row of
 * AVAL_TRANSITIONS (packages/domain), each a guarded update from the transition's starting
 * statuses: zero rows means another request moved it first.
 */
export type AvalRow = typeof avals.$inferSelect;

/** The status change of `transition` ending in `to`, or an error for a move the table does not have. */
const move = statusMoves(avals.status, AVAL_TRANSITIONS);

export async function findAval(db: Executor, id: string): Promise<AvalRow | undefined> {
  return firstRow(db.select().from(avals).where(eq(avals.id, id)));
}

/** The guarantor of `type` the application has now (a replaced one is kept only for the record). */
export async function findActiveAval(db: Executor, userId: string, type: AvalType): Promise<AvalRow | undefined> {
  return firstRow(
    db
      .select()
      .from(avals)
      .where(and(eq(avals.userId, userId), eq(avals.avalType, type), ne(avals.status, 'REPLACED'))),
  );
}

/** The application's guarantors the policy approved, oldest first (the contract's parties). */
export function listApprovedAvals(db: Executor, userId: string): Promise<AvalRow[]> {
  return db
    .select()
    .from(avals)
    .where(and(eq(avals.userId, userId), eq(avals.status, 'APPROVED')))
    .orderBy(asc(avals.createdAt));
}

/** A newly named guarantor, waiting for their consent. */
export async function insertAval(
  tx: Executor,
  values: Pick<AvalRow, 'userId' | 'avalType' | 'name' | 'phoneE164' | 'taxIdEncrypted'> &
    Partial<Pick<AvalRow, 'id' | 'givenNames' | 'lastname' | 'maternalLastname' | 'addressEncrypted'>> & { at: Date },
): Promise<AvalRow> {
  const { at, ...columns } = values;
  const [created] = await tx
    .insert(avals)
    .values({ ...columns, status: AVAL_INITIAL_STATUS, createdAt: at, updatedAt: at })
    .returning();
  return created!;
}

/** The application's guarantor of `type`, if any, makes room for a new one. */
export async function replaceActiveAvals(tx: Executor, userId: string, type: AvalType, at: Date): Promise<void> {
  const { status, guard } = move('replaced', 'REPLACED');
  await tx
    .update(avals)
    .set({ status, updatedAt: at })
    .where(and(eq(avals.userId, userId), eq(avals.avalType, type), guard));
}

/** One guarantor's status change; false when another request moved them first. */
function moveAval(tx: Executor, id: string, { status, guard }: ReturnType<typeof move>, at: Date): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(avals)
      .set({ status, updatedAt: at })
      .where(and(eq(avals.id, id), guard))
      .returning({ id: avals.id }),
  );
}

/** Their consent is recorded. False when they were not waiting for it any more. */
export async function markAvalConsented(tx: Executor, id: string, at: Date): Promise<boolean> {
  return moveAval(tx, id, move('consented', 'CONSENTED'), at);
}

/** The policy's guarantor rules decided. False when they were not consented (decided already). */
export async function markAvalDecided(tx: Executor, id: string, approved: boolean, at: Date): Promise<boolean> {
  return moveAval(tx, id, move('decided', approved ? 'APPROVED' : 'REFUSED'), at);
}

/**
 * Another number for a guarantor still waiting for their consent, guarded on the number it had:
 * two changes at once cannot both win. Undefined when it changed meanwhile.
 */
export async function changePendingAvalPhone(
  tx: Executor,
  id: string,
  change: { from: string; to: string; at: Date },
): Promise<AvalRow | undefined> {
  return returnedRow(
    tx
      .update(avals)
      .set({ phoneE164: change.to, updatedAt: change.at })
      .where(and(eq(avals.id, id), eq(avals.phoneE164, change.from), eq(avals.status, 'PENDING')))
      .returning(),
  );
}

/** When the guarantor's newest invitation link stops working (its reminder goes before). */
export async function recordInvitationExpiry(tx: Executor, id: string, expiresAt: Date): Promise<void> {
  await tx.update(avals).set({ invitationExpiresAt: expiresAt }).where(eq(avals.id, id));
}

// Remote consent joins the guarantor with the reverse-OTP session of their number in one query.
// The sessions are modules/phone-proof's, which exports no read of them by guarantor (yet).

/**
 * A session whose message came from the guarantor's phone (VERIFIED) and whose guarantor's
 * consent is recorded (CONSENTED, or decided since).
 */
export async function isConsentedThroughSession(
  db: Executor,
  session: { keyHash: string } | { id: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: reverseOtpSessions.id })
    .from(reverseOtpSessions)
    .innerJoin(avals, eq(avals.id, reverseOtpSessions.avalId))
    .where(
      and(
        'keyHash' in session ? eq(reverseOtpSessions.keyHash, session.keyHash) : eq(reverseOtpSessions.id, session.id),
        eq(reverseOtpSessions.status, 'VERIFIED'),
        eq(avals.phoneE164, reverseOtpSessions.phoneE164),
        inArray(avals.status, ['CONSENTED', 'APPROVED', 'REFUSED']),
      ),
    )
    .limit(1);
  return !!row;
}
