import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow, returnedRow } from '../../db/rows.js';
import { partnerCalls, partnerKeys } from '../../db/schema.js';

export type PartnerKeyRow = typeof partnerKeys.$inferSelect;

export async function insertPartnerKey(tx: Executor, row: typeof partnerKeys.$inferInsert): Promise<PartnerKeyRow> {
  return (await returnedRow(tx.insert(partnerKeys).values(row).returning()))!;
}

export async function listPartnerKeys(db: Executor): Promise<PartnerKeyRow[]> {
  return db.select().from(partnerKeys).orderBy(desc(partnerKeys.createdAt));
}

export async function findPartnerKeyByHash(db: Executor, tokenHash: string): Promise<PartnerKeyRow | undefined> {
  return firstRow(db.select().from(partnerKeys).where(eq(partnerKeys.tokenHash, tokenHash)));
}

/** Revoked once: undefined when it was already (or is not there). */
export async function revokeKey(tx: Executor, id: string, at: Date): Promise<PartnerKeyRow | undefined> {
  return returnedRow(
    tx
      .update(partnerKeys)
      .set({ revokedAt: at })
      .where(and(eq(partnerKeys.id, id), isNull(partnerKeys.revokedAt)))
      .returning(),
  );
}

export async function findPartnerKey(db: Executor, id: string): Promise<PartnerKeyRow | undefined> {
  return firstRow(db.select().from(partnerKeys).where(eq(partnerKeys.id, id)));
}

/** One call of a key, and the key's last use. */
export async function recordPartnerCall(tx: Executor, call: typeof partnerCalls.$inferInsert): Promise<void> {
  await tx.insert(partnerCalls).values(call);
  await tx.update(partnerKeys).set({ lastUsedAt: call.at }).where(eq(partnerKeys.id, call.keyId));
}
