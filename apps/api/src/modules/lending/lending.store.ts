import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow, returnedRow } from '../../db/rows.js';
import { contracts, contractSigners, lenderDecisions } from '../../db/schema.js';

export type LenderDecisionRow = typeof lenderDecisions.$inferSelect;

export async function insertLenderDecision(
  tx: Executor,
  row: typeof lenderDecisions.$inferInsert,
): Promise<LenderDecisionRow> {
  return (await returnedRow(tx.insert(lenderDecisions).values(row).returning()))!;
}

/** The application's lender decisions, oldest first (approval or decline, then the disbursement). */
export async function listLenderDecisions(db: Executor, userId: string): Promise<LenderDecisionRow[]> {
  return db
    .select()
    .from(lenderDecisions)
    .where(eq(lenderDecisions.userId, userId))
    .orderBy(asc(lenderDecisions.createdAt));
}

export async function findLenderApproval(db: Executor, userId: string): Promise<LenderDecisionRow | undefined> {
  return firstRow(
    db
      .select()
      .from(lenderDecisions)
      .where(and(eq(lenderDecisions.userId, userId), eq(lenderDecisions.outcome, 'APPROVED'))),
  );
}

/**
 * The application's contract as the lender's decisions read it: its amount, whether anyone signed,
 * the guarantors it names and who signed it (the titular, and the guarantors by id); none yet:
 * undefined. The row is locked (call in the decision's transaction): a signature in flight, which
 * holds it too, is either before the decision or after it, never half seen.
 */
export async function contractStanding(db: Executor, userId: string) {
  const [contract] = await db
    .select({
      amount: contracts.amount,
      currency: contracts.currency,
      signedSha256: contracts.signedSha256,
      avalIds: contracts.avalIds,
    })
    .from(contracts)
    .where(eq(contracts.userId, userId))
    .limit(1)
    .for('update');
  if (!contract) return undefined;
  const signed = await db
    .select({ personType: contractSigners.personType, avalId: contractSigners.avalId })
    .from(contractSigners)
    .where(and(eq(contractSigners.userId, userId), eq(contractSigners.state, 'SIGNED')));
  return {
    ...contract,
    titularSigned: signed.some((signer) => signer.personType === 'titular'),
    guarantorsSigned: signed.flatMap((signer) => (signer.avalId ? [signer.avalId] : [])),
  };
}
