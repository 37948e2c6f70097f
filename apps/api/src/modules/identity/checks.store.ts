import type { IdentityDocumentKind } from '@provee/domain';
import { and, eq, inArray, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { changedAnyRow, firstRow } from '../../db/rows.js';
import { contractSigners, identityDocuments, identityVerifications } from '../../db/schema.js';
import type { SignerRow } from '../application/index.js';

/** The identity checks (`identity_verifications`) and the photos each was started with (`identity_documents`). */
export type CheckRow = typeof identityVerifications.$inferSelect;
export type NewCheck = typeof identityVerifications.$inferInsert;
export type NewDocument = typeof identityDocuments.$inferInsert;

export async function findCheck(db: Executor, id: string): Promise<CheckRow | undefined> {
  return firstRow(db.select().from(identityVerifications).where(eq(identityVerifications.id, id)));
}

/** Where a check stands and when it started (what the status call reads, often). */
export async function findCheckProgress(db: Executor, id: string) {
  return firstRow(
    db
      .select({ status: identityVerifications.status, createdAt: identityVerifications.createdAt })
      .from(identityVerifications)
      .where(eq(identityVerifications.id, id)),
  );
}

export async function findChecks(db: Executor, ids: string[]): Promise<CheckRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(identityVerifications).where(inArray(identityVerifications.id, ids));
}

/** Our id of the check a provider knows by its own id (MetaMap's verification id). */
export async function findCheckIdByProviderId(db: Executor, providerVerificationId: string) {
  const check = await firstRow(
    db
      .select({ id: identityVerifications.id })
      .from(identityVerifications)
      .where(eq(identityVerifications.providerVerificationId, providerVerificationId)),
  );
  return check?.id;
}

export async function insertCheck(tx: Executor, values: NewCheck): Promise<void> {
  await tx.insert(identityVerifications).values(values);
}

/** Records an answer on the check, only while it is still at `from`: false when another answer came first. */
export async function recordCheckAnswer(
  tx: Executor,
  id: string,
  from: string,
  values: Pick<CheckRow, 'status' | 'answeredAt' | 'answeredBy' | 'answer'> & { identityId?: string },
): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(identityVerifications)
      .set(values)
      .where(and(eq(identityVerifications.id, id), eq(identityVerifications.status, from)))
      .returning({ id: identityVerifications.id }),
  );
}

export async function insertDocuments(tx: Executor, rows: NewDocument[]): Promise<void> {
  await tx.insert(identityDocuments).values(rows);
}

/** The kinds of a check's photos with their SHA-256: of the stored copy, or of the bytes the phone sent. */
export async function documentHashes(db: Executor, verificationId: string, by: 'copy' | 'upload') {
  return db
    .select({
      kind: identityDocuments.kind,
      sha256: by === 'copy' ? identityDocuments.sha256 : identityDocuments.uploadSha256,
    })
    .from(identityDocuments)
    .where(eq(identityDocuments.verificationId, verificationId));
}

/** Whether a check has this photo, named by the SHA-256 of the bytes the phone sent. */
export async function checkHasUpload(
  db: Executor,
  verificationId: string,
  kind: IdentityDocumentKind,
  uploadSha256: string,
): Promise<boolean> {
  const found = await firstRow(
    db
      .select({ id: identityDocuments.id })
      .from(identityDocuments)
      .where(
        and(
          eq(identityDocuments.verificationId, verificationId),
          eq(identityDocuments.kind, kind),
          eq(identityDocuments.uploadSha256, uploadSha256),
        ),
      ),
  );
  return found !== undefined;
}

// The signer as the step engine keeps it (modules/application moves it; this module only reads it).

export async function findSigner(db: Executor, id: string): Promise<SignerRow | undefined> {
  return firstRow(db.select().from(contractSigners).where(eq(contractSigners.id, id)));
}

/** The step engine's guard of a check's start: an attempt is left (the signer's row as updated). */
export const attemptLeft = (maxAttempts: number): SQL =>
  sql`${contractSigners.verificationAttempts} < ${maxAttempts} + ${contractSigners.extraAttempts}`;

/** The attempt counted in the same guarded update. */
export const oneMoreAttempt = () => sql`${contractSigners.verificationAttempts} + 1` as unknown as number;

// Read here until modules/guarantors exports it (issue 28, step 1).

/** A check of one of the application's signers (the back office decides those sent to review). */
export async function findCheckOfApplication(db: Executor, verificationId: string, userId: string) {
  return firstRow(
    db
      .select({ status: identityVerifications.status })
      .from(identityVerifications)
      .innerJoin(contractSigners, eq(contractSigners.id, identityVerifications.signerId))
      .where(and(eq(identityVerifications.id, verificationId), eq(contractSigners.userId, userId))),
  );
}

export async function findSignerOfApplication(
  db: Executor,
  signerId: string,
  userId: string,
): Promise<SignerRow | undefined> {
  const [signer] = await db
    .select()
    .from(contractSigners)
    .where(and(eq(contractSigners.id, signerId), eq(contractSigners.userId, userId)));
  return signer;
}

/**
 * One more identity-verification attempt, only while its conditions hold (they are the update's own
 * guard, so grants sent at once change the row once): not signed, not approved, not under review,
 * every attempt used, fewer than `extraMax` extra ones. The new count of extra attempts, or null.
 */
export async function addExtraAttempt(
  tx: Executor,
  input: { signerId: string; userId: string; maxAttempts: number; extraMax: number; now: Date },
): Promise<number | null> {
  const [row] = await tx
    .update(contractSigners)
    .set({ extraAttempts: sql`${contractSigners.extraAttempts} + 1`, updatedAt: input.now })
    .where(
      and(
        eq(contractSigners.id, input.signerId),
        eq(contractSigners.userId, input.userId),
        // Not signed, not approved, not waiting for a person's review: a new check is what they need.
        notInArray(contractSigners.state, ['SIGNED', 'VERIFIED', 'UNDER_REVIEW']),
        sql`${contractSigners.verificationAttempts} >= ${input.maxAttempts} + ${contractSigners.extraAttempts}`,
        lt(contractSigners.extraAttempts, input.extraMax),
      ),
    )
    .returning({ extraAttempts: contractSigners.extraAttempts });
  return row ? row.extraAttempts : null;
}
