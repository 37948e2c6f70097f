import { and, count, desc, eq, gt } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { reverseOtpSessions } from '../../db/schema.js';

/** Reverse-OTP sessions: the phone sends us a message naming its nonce. Each row moves from PENDING once. */
export type ReverseOtpSession = typeof reverseOtpSessions.$inferSelect;
type NewSession = Omit<typeof reverseOtpSessions.$inferInsert, 'id' | 'status' | 'resolvedAt' | 'fromE164'>;

export async function countSessionsSince(tx: Executor, phoneE164: string, since: Date): Promise<number> {
  const [recent] = await tx
    .select({ n: count() })
    .from(reverseOtpSessions)
    .where(and(eq(reverseOtpSessions.phoneE164, phoneE164), gt(reverseOtpSessions.createdAt, since)));
  return recent?.n ?? 0;
}

/** A newer session supersedes the phone's pending ones. */
export async function supersedePending(tx: Tx, phoneE164: string, now: Date): Promise<void> {
  await tx
    .update(reverseOtpSessions)
    .set({ status: 'SUPERSEDED', resolvedAt: now })
    .where(and(eq(reverseOtpSessions.phoneE164, phoneE164), eq(reverseOtpSessions.status, 'PENDING')));
}

/** Inserts the session unless its nonce is taken (then undefined: draw another). */
export async function insertSession(tx: Tx, session: NewSession): Promise<ReverseOtpSession | undefined> {
  return returnedRow(
    tx.insert(reverseOtpSessions).values(session).onConflictDoNothing({ target: reverseOtpSessions.nonce }).returning(),
  );
}

/** By the stored hash of the browser's key, or by the row's id (the server's own jobs). */
export async function findSession(
  db: Executor,
  by: { keyHash: string } | { id: string },
): Promise<ReverseOtpSession | undefined> {
  return firstRow(
    db
      .select()
      .from(reverseOtpSessions)
      .where('keyHash' in by ? eq(reverseOtpSessions.keyHash, by.keyHash) : eq(reverseOtpSessions.id, by.id)),
  );
}

export async function findPendingByNonce(tx: Executor, nonce: string): Promise<ReverseOtpSession | undefined> {
  return firstRow(
    tx
      .select()
      .from(reverseOtpSessions)
      .where(and(eq(reverseOtpSessions.nonce, nonce), eq(reverseOtpSessions.status, 'PENDING'))),
  );
}

/** Moves a PENDING session to its outcome; false when another request resolved it first. */
export async function resolveSession(
  db: Executor,
  id: string,
  outcome: { status: 'VERIFIED' | 'FAILED' | 'EXPIRED'; resolvedAt: Date; fromE164?: string },
): Promise<boolean> {
  return changedAnyRow(
    db
      .update(reverseOtpSessions)
      .set(outcome)
      .where(and(eq(reverseOtpSessions.id, id), eq(reverseOtpSessions.status, 'PENDING')))
      .returning({ id: reverseOtpSessions.id }),
  );
}

/** The newest sessions still waiting for their message (the development phone page lists them). */
export async function listPendingSessions(db: Executor, now: Date, limit: number): Promise<ReverseOtpSession[]> {
  return db
    .select()
    .from(reverseOtpSessions)
    .where(and(eq(reverseOtpSessions.status, 'PENDING'), gt(reverseOtpSessions.expiresAt, now)))
    .orderBy(desc(reverseOtpSessions.createdAt))
    .limit(limit);
}
