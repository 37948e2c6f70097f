import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { contractLinks, contracts, contractSigners } from '../../db/schema.js';
import type { SignerRow } from '../application/index.js';

/**
 * The contract (`contracts`: one per application, its PDFs encrypted), its signers
 * (`contract_signers`, whose state only the step engine moves) and their links (`contract_links`,
 * kept by the SHA-256 of their token).
 */
export type ContractRow = typeof contracts.$inferSelect;
export type LinkRow = typeof contractLinks.$inferSelect;
type ContractValues = Omit<typeof contracts.$inferInsert, 'id' | 'userId' | 'createdAt'>;

export async function findContract(db: Executor, id: string): Promise<ContractRow | undefined> {
  return firstRow(db.select().from(contracts).where(eq(contracts.id, id)));
}

export async function findContractOfUser(db: Executor, userId: string): Promise<ContractRow | undefined> {
  return firstRow(db.select().from(contracts).where(eq(contracts.userId, userId)));
}

/** The contract row locked for this transaction (a signature holds it while it stores the signed PDF). */
export async function lockContract(tx: Executor, id: string): Promise<ContractRow | undefined> {
  const [contract] = await tx.select().from(contracts).where(eq(contracts.id, id)).for('update');
  return contract;
}

/** The SHA-256 of the document the signer reads. */
export async function unsignedSha256Of(db: Executor, id: string): Promise<string | undefined> {
  const [contract] = await db
    .select({ unsignedSha256: contracts.unsignedSha256 })
    .from(contracts)
    .where(eq(contracts.id, id));
  return contract?.unsignedSha256;
}

/** The SHA-256 of the signed file as it stands now (null before the first signature), without its bytes. */
export async function signedSha256Of(db: Executor, id: string): Promise<string | null | undefined> {
  const [contract] = await db
    .select({ signedSha256: contracts.signedSha256 })
    .from(contracts)
    .where(eq(contracts.id, id));
  return contract?.signedSha256;
}

/** The application's first draft; undefined when another request drafted it first. */
export async function insertContract(
  tx: Executor,
  values: ContractValues & Pick<ContractRow, 'id' | 'userId' | 'createdAt'>,
): Promise<ContractRow | undefined> {
  return returnedRow(tx.insert(contracts).values(values).onConflictDoNothing({ target: contracts.userId }).returning());
}

/** A new draft of the contract, only while nobody has signed it; undefined when somebody has. */
export async function redraftContract(
  tx: Executor,
  id: string,
  values: ContractValues,
): Promise<ContractRow | undefined> {
  return returnedRow(
    tx
      .update(contracts)
      .set(values)
      .where(and(eq(contracts.id, id), isNull(contracts.signedSha256)))
      .returning(),
  );
}

export async function storeSignedPdf(
  tx: Executor,
  id: string,
  values: Pick<ContractRow, 'signedPdf' | 'signedSha256' | 'updatedAt'>,
): Promise<void> {
  await tx.update(contracts).set(values).where(eq(contracts.id, id));
}

/** The titular's signer row of a contract, or the guarantor's (by aval id). */
export async function findContractSigner(
  db: Executor,
  contractId: string,
  avalId: string | null,
): Promise<SignerRow | undefined> {
  return firstRow(
    db
      .select()
      .from(contractSigners)
      .where(
        and(
          eq(contractSigners.contractId, contractId),
          avalId ? eq(contractSigners.avalId, avalId) : eq(contractSigners.personType, 'titular'),
        ),
      ),
  );
}

/** A new signer; undefined when another request added them first. */
export async function insertSigner(
  tx: Executor,
  values: typeof contractSigners.$inferInsert,
): Promise<SignerRow | undefined> {
  return returnedRow(tx.insert(contractSigners).values(values).onConflictDoNothing().returning());
}

/** The signer's row locked for this transaction (as a signature locks it). */
export async function lockSigner(tx: Executor, id: string): Promise<SignerRow | undefined> {
  const [signer] = await tx.select().from(contractSigners).where(eq(contractSigners.id, id)).for('update');
  return signer;
}

export async function signedSignersOf(db: Executor, contractId: string): Promise<SignerRow[]> {
  return db
    .select()
    .from(contractSigners)
    .where(and(eq(contractSigners.contractId, contractId), eq(contractSigners.state, 'SIGNED')));
}

/** Every signer of the contract, in the order they were added. */
export async function signersOf(db: Executor, contractId: string): Promise<SignerRow[]> {
  return db
    .select()
    .from(contractSigners)
    .where(eq(contractSigners.contractId, contractId))
    .orderBy(asc(contractSigners.createdAt));
}

/** A link by id. */
export async function findLink(db: Executor, id: string): Promise<LinkRow | undefined> {
  return firstRow(db.select().from(contractLinks).where(eq(contractLinks.id, id)));
}

export async function findLinkByTokenSha256(db: Executor, tokenSha256: string): Promise<LinkRow | undefined> {
  return firstRow(db.select().from(contractLinks).where(eq(contractLinks.tokenSha256, tokenSha256)));
}

/** Replaces the signer's open signing links: they stop working at once. */
export async function revokeOpenSigningLinks(tx: Executor, signerId: string, at: Date): Promise<void> {
  await tx
    .update(contractLinks)
    .set({ revokedAt: at })
    .where(
      and(
        eq(contractLinks.signerId, signerId),
        eq(contractLinks.purpose, 'sign'),
        isNull(contractLinks.usedAt),
        isNull(contractLinks.revokedAt),
      ),
    );
}

export async function insertLink(tx: Executor, values: typeof contractLinks.$inferInsert): Promise<LinkRow> {
  const [row] = await tx.insert(contractLinks).values(values).returning();
  return row!;
}

/** Uses the link up, once, unless it was replaced: false when it was used or replaced first. */
export async function markLinkUsed(tx: Executor, id: string, at: Date): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(contractLinks)
      .set({ usedAt: at })
      .where(and(eq(contractLinks.id, id), isNull(contractLinks.usedAt), isNull(contractLinks.revokedAt)))
      .returning({ id: contractLinks.id }),
  );
}
