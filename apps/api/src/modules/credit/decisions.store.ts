import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { catalogMunicipalities, catalogSalesRanges, creditDecisions } from '../../db/schema.js';

/** Credit decisions (append-only): what each was made from, every rule's outcome, the amount. */
export type DecisionRow = typeof creditDecisions.$inferSelect;
export type NewDecision = typeof creditDecisions.$inferInsert;

export async function insertDecision(tx: Executor, values: NewDecision): Promise<void> {
  await tx.insert(creditDecisions).values(values);
}

/** The shopkeeper's latest approval (a guarantor's decision is not one), or undefined. */
export async function findLatestApprovedDecision(
  db: Executor,
  userId: string,
): Promise<Pick<DecisionRow, 'amount' | 'currency'> | undefined> {
  return firstRow(
    db
      .select({ amount: creditDecisions.amount, currency: creditDecisions.currency })
      .from(creditDecisions)
      .where(
        and(eq(creditDecisions.userId, userId), isNull(creditDecisions.avalId), eq(creditDecisions.result, 'APPROVED')),
      )
      .orderBy(desc(creditDecisions.createdAt)),
  );
}

// The catalogue rows the policy reads, by the ids the applicant's address and business keep:
// modules/catalog exports no lookup by id (yet), so they are read here.

/** Whether the lender serves the municipality (SPEC §2.3 item 15); undefined for no such row. */
export async function isMunicipalityServed(db: Executor, id: number): Promise<boolean | undefined> {
  const row = await firstRow(
    db
      .select({ allowed: catalogMunicipalities.allowed })
      .from(catalogMunicipalities)
      .where(eq(catalogMunicipalities.id, id)),
  );
  return row?.allowed;
}

/** The sales range's place in its country's list (0 for the lowest); undefined for no such row. */
export async function salesRangePosition(db: Executor, id: number): Promise<number | undefined> {
  const row = await firstRow(
    db.select({ position: catalogSalesRanges.position }).from(catalogSalesRanges).where(eq(catalogSalesRanges.id, id)),
  );
  return row?.position;
}
