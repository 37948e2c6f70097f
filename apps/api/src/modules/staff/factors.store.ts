import { and, asc, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { changedAnyRow, firstRow } from '../../db/rows.js';
import { staffPasskeys, staffRecoveryCodes, staffTotp } from '../../db/schema.js';

/**
 * Second factors: the authenticator app's secret (`staff_totp`), passkeys (`staff_passkeys`) and
 * recovery codes (`staff_recovery_codes`). Every "use" is one guarded UPDATE, so a code or an
 * assertion replayed at the same moment passes once.
 */
export type TotpRow = typeof staffTotp.$inferSelect;
export type PasskeyRow = typeof staffPasskeys.$inferSelect;

/** How many of each factor an account has: a confirmed app, passkeys, unused recovery codes. */
export async function countSecondFactors(
  db: Executor,
  staffId: string,
): Promise<{ confirmedTotp: number; passkeys: number; unusedRecoveryCodes: number }> {
  const [[totp], [passkeys], [codes]] = await Promise.all([
    db
      .select({ n: count() })
      .from(staffTotp)
      .where(and(eq(staffTotp.staffId, staffId), isNotNull(staffTotp.confirmedAt))),
    db.select({ n: count() }).from(staffPasskeys).where(eq(staffPasskeys.staffId, staffId)),
    db
      .select({ n: count() })
      .from(staffRecoveryCodes)
      .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt))),
  ]);
  return { confirmedTotp: totp!.n, passkeys: passkeys!.n, unusedRecoveryCodes: codes!.n };
}

// --- Authenticator app ---

export async function findTotp(db: Executor, staffId: string): Promise<TotpRow | undefined> {
  return (await db.select().from(staffTotp).where(eq(staffTotp.staffId, staffId)).limit(1))[0];
}

/**
 * Keeps a new, unconfirmed secret (replacing an unconfirmed one, its last step forgotten); false
 * when the account has a confirmed one.
 */
export async function storeUnconfirmedTotp(
  db: Executor,
  staffId: string,
  secretEncrypted: Uint8Array,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .insert(staffTotp)
    .values({ staffId, secretEncrypted, createdAt: now })
    .onConflictDoUpdate({
      target: staffTotp.staffId,
      set: { secretEncrypted, createdAt: now, lastStep: null },
      setWhere: isNull(staffTotp.confirmedAt),
    })
    .returning({ staffId: staffTotp.staffId });
  return !!row;
}

/**
 * Moves the secret's last step to `step` when it is later than the last one, the secret is still
 * the one created at `createdAt` and confirmed (or not) as `confirmed` says; `confirmAt` confirms it
 * at the same time. True when it moved.
 */
export async function useTotpStep(
  db: Executor,
  input: { staffId: string; confirmed: boolean; createdAt: Date; step: number; confirmAt?: Date },
): Promise<boolean> {
  return changedAnyRow(
    db
      .update(staffTotp)
      .set({ lastStep: input.step, ...(input.confirmAt ? { confirmedAt: input.confirmAt } : {}) })
      .where(
        and(
          eq(staffTotp.staffId, input.staffId),
          input.confirmed ? isNotNull(staffTotp.confirmedAt) : isNull(staffTotp.confirmedAt),
          eq(staffTotp.createdAt, input.createdAt),
          or(isNull(staffTotp.lastStep), lt(staffTotp.lastStep, input.step)),
        ),
      )
      .returning({ staffId: staffTotp.staffId }),
  );
}

/** Removes the account's app secret; answers how many went (0 or 1). */
export async function deleteTotp(tx: Executor, staffId: string): Promise<number> {
  return (await tx.delete(staffTotp).where(eq(staffTotp.staffId, staffId)).returning()).length;
}

// --- Passkeys ---

export function listPasskeys(db: Executor, staffId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId))
    .orderBy(asc(staffPasskeys.createdAt));
}

export async function findPasskey(
  db: Executor,
  staffId: string,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  return firstRow(
    db
      .select()
      .from(staffPasskeys)
      .where(and(eq(staffPasskeys.staffId, staffId), eq(staffPasskeys.credentialId, credentialId))),
  );
}

/** A new passkey; null when its credential id is already registered. */
export async function insertPasskey(
  tx: Executor,
  values: Pick<PasskeyRow, 'staffId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name' | 'createdAt'>,
): Promise<PasskeyRow | null> {
  const [row] = await tx
    .insert(staffPasskeys)
    .values(values)
    .onConflictDoNothing({ target: staffPasskeys.credentialId })
    .returning();
  return row ?? null;
}

/**
 * Records a use of the passkey with the authenticator's new counter, only when the counter moves
 * forward (or stays at 0 for an authenticator that keeps none). True when it was recorded.
 */
export async function advancePasskeyCounter(db: Executor, id: string, newCounter: number, at: Date): Promise<boolean> {
  return changedAnyRow(
    db
      .update(staffPasskeys)
      .set({ counter: newCounter, lastUsedAt: at })
      .where(
        and(
          eq(staffPasskeys.id, id),
          newCounter === 0 ? eq(staffPasskeys.counter, 0) : lt(staffPasskeys.counter, newCounter),
        ),
      )
      .returning({ id: staffPasskeys.id }),
  );
}

/** Removes one of this account's passkeys; false when it has none by that id. */
export async function deletePasskey(tx: Executor, staffId: string, id: string): Promise<boolean> {
  return changedAnyRow(
    tx
      .delete(staffPasskeys)
      .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.staffId, staffId)))
      .returning({ id: staffPasskeys.id }),
  );
}

/** Removes every passkey of the account; answers how many went. */
export async function deletePasskeys(tx: Executor, staffId: string): Promise<number> {
  return (await tx.delete(staffPasskeys).where(eq(staffPasskeys.staffId, staffId)).returning()).length;
}

// --- Recovery codes ---

/** The account's codes become these (earlier ones, used or not, go). Run it inside a transaction. */
export async function replaceRecoveryCodes(
  tx: Executor,
  staffId: string,
  codeHashes: string[],
  now: Date,
): Promise<void> {
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  await tx.insert(staffRecoveryCodes).values(codeHashes.map((codeHash) => ({ staffId, codeHash, createdAt: now })));
}

/** Marks the account's unused code with this hash used; false when there is none. */
export async function markRecoveryCodeUsed(
  db: Executor,
  staffId: string,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  return changedAnyRow(
    db
      .update(staffRecoveryCodes)
      .set({ usedAt: at })
      .where(
        and(
          eq(staffRecoveryCodes.staffId, staffId),
          eq(staffRecoveryCodes.codeHash, codeHash),
          isNull(staffRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: staffRecoveryCodes.id }),
  );
}

export async function countUnusedRecoveryCodes(db: Executor, staffId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
  return row?.left ?? 0;
}

/** Removes every code of the account; answers how many went. */
export async function deleteRecoveryCodes(tx: Executor, staffId: string): Promise<number> {
  return (await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId)).returning()).length;
}
