import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { firstRow } from '../../../db/rows.js';
import { contractSeals } from '../../../db/schema.js';

/** The seal of a fully signed contract (`contract_seals`), its time-stamp and its NOM-151 certificate. */
export type SealRow = typeof contractSeals.$inferSelect;

export async function insertSeal(tx: Executor, values: typeof contractSeals.$inferInsert): Promise<void> {
  await tx.insert(contractSeals).values(values);
}

export async function findSeal(db: Executor, contractId: string): Promise<SealRow | undefined> {
  return firstRow(db.select().from(contractSeals).where(eq(contractSeals.contractId, contractId)));
}

/** The seal row locked for this transaction (a time-stamp or a NOM-151 certificate being stored). */
export async function lockSeal(tx: Executor, contractId: string): Promise<SealRow | undefined> {
  const [row] = await tx.select().from(contractSeals).where(eq(contractSeals.contractId, contractId)).for('update');
  return row;
}

export async function updateSeal(
  tx: Executor,
  contractId: string,
  values: Partial<Omit<SealRow, 'contractId'>>,
): Promise<void> {
  await tx.update(contractSeals).set(values).where(eq(contractSeals.contractId, contractId));
}

/** One more failed try at the authority, with what it said. */
export async function recordTimestampFailure(db: Executor, contractId: string, error: string, at: Date) {
  await db
    .update(contractSeals)
    .set({ timestampAttempts: sql`${contractSeals.timestampAttempts} + 1`, timestampError: error, updatedAt: at })
    .where(and(eq(contractSeals.contractId, contractId), eq(contractSeals.timestampStatus, 'waiting')));
}

/** Seals still waiting for their time-stamp or their NOM-151 certificate, oldest first. */
export async function waitingSeals(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ contractId: contractSeals.contractId })
    .from(contractSeals)
    .where(or(eq(contractSeals.timestampStatus, 'waiting'), eq(contractSeals.nom151Status, 'waiting')))
    .orderBy(asc(contractSeals.sealedAt))
    .limit(limit);
  return rows.map((row) => row.contractId);
}
