import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { phoneCodes } from '../../db/schema.js';

/** The one-time codes sent to a phone, kept only as keyed hashes. */
export type CodeRow = typeof phoneCodes.$inferSelect;
export type NewCode = Omit<typeof phoneCodes.$inferInsert, 'id'>;

const forPhone = (phoneE164: string, purpose: string) =>
  and(eq(phoneCodes.phoneE164, phoneE164), eq(phoneCodes.purpose, purpose));

/** The phone's newest code for this purpose, whatever became of it. */
export async function newestCode(tx: Executor, phoneE164: string, purpose: string) {
  return firstRow(
    tx
      .select({
        createdAt: phoneCodes.createdAt,
        expiresAt: phoneCodes.expiresAt,
        consumedAt: phoneCodes.consumedAt,
        attempts: phoneCodes.attempts,
      })
      .from(phoneCodes)
      .where(forPhone(phoneE164, purpose))
      .orderBy(desc(phoneCodes.createdAt)),
  );
}

/** How many codes the phone got for this purpose since `since`. */
export async function countCodesSince(tx: Executor, phoneE164: string, purpose: string, since: Date): Promise<number> {
  const [sent] = await tx
    .select({ n: count() })
    .from(phoneCodes)
    .where(and(forPhone(phoneE164, purpose), gt(phoneCodes.createdAt, since)));
  return sent?.n ?? 0;
}

/** When the first code since `since` was sent. */
export async function firstCodeSince(
  tx: Executor,
  phoneE164: string,
  purpose: string,
  since: Date,
): Promise<Date | undefined> {
  const oldest = await firstRow(
    tx
      .select({ createdAt: phoneCodes.createdAt })
      .from(phoneCodes)
      .where(and(forPhone(phoneE164, purpose), gt(phoneCodes.createdAt, since)))
      .orderBy(phoneCodes.createdAt),
  );
  return oldest?.createdAt;
}

/** A new code revokes every unused one of the same phone and purpose. The new code's id. */
export async function replaceCode(tx: Tx, code: NewCode): Promise<string> {
  await tx
    .update(phoneCodes)
    .set({ revokedAt: code.createdAt })
    .where(and(forPhone(code.phoneE164, code.purpose), isNull(phoneCodes.consumedAt), isNull(phoneCodes.revokedAt)));
  const [row] = await tx.insert(phoneCodes).values(code).returning({ id: phoneCodes.id });
  return row!.id;
}

/** A code by id. */
export async function findCode(db: Executor, id: CodeRow['id']): Promise<CodeRow | undefined> {
  return firstRow(db.select().from(phoneCodes).where(eq(phoneCodes.id, id)));
}

/** Removes a code unless it was used: what it was (its phone and time), or undefined. */
export async function deleteUnusedCode(db: Executor, id: CodeRow['id']) {
  return returnedRow(
    db
      .delete(phoneCodes)
      .where(and(eq(phoneCodes.id, id), isNull(phoneCodes.consumedAt)))
      .returning({ phoneE164: phoneCodes.phoneE164, createdAt: phoneCodes.createdAt }),
  );
}

/** The phone's newest code for this purpose that is neither spent nor revoked. */
export async function liveCode(db: Executor, phoneE164: string, purpose: string): Promise<CodeRow | undefined> {
  return firstRow(
    db
      .select()
      .from(phoneCodes)
      .where(and(forPhone(phoneE164, purpose), isNull(phoneCodes.consumedAt), isNull(phoneCodes.revokedAt)))
      .orderBy(desc(phoneCodes.createdAt)),
  );
}

/** Counts one try, atomically, while fewer than `maxAttempts` were made: the tries so far, or null when locked. */
export async function countTry(db: Executor, id: CodeRow['id'], maxAttempts: number): Promise<number | null> {
  const [tried] = await db
    .update(phoneCodes)
    .set({ attempts: sql`${phoneCodes.attempts} + 1` })
    .where(and(eq(phoneCodes.id, id), lt(phoneCodes.attempts, maxAttempts)))
    .returning({ attempts: phoneCodes.attempts });
  return tried ? tried.attempts : null;
}

/** Spends the code once: false when another request spent it first. */
export async function spendCode(tx: Tx, id: CodeRow['id'], now: Date): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(phoneCodes)
      .set({ consumedAt: now })
      .where(and(eq(phoneCodes.id, id), isNull(phoneCodes.consumedAt)))
      .returning({ id: phoneCodes.id }),
  );
}
