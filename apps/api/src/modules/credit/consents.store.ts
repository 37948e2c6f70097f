import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { bureauConsents } from '../../db/schema.js';

/** Consents to query the bureau (append-only): the shopkeeper's own, or a guarantor's. */
export type ConsentRow = typeof bureauConsents.$inferSelect;
export type NewConsent = Omit<typeof bureauConsents.$inferInsert, 'id'>;

export async function insertConsent(tx: Executor, values: NewConsent): Promise<string> {
  const [row] = await tx.insert(bureauConsents).values(values).returning({ id: bureauConsents.id });
  return row!.id;
}

/** The folio the bureau is asked under, and whose consent it is (a guarantor's, or null for the shopkeeper's). */
export async function findConsent(
  db: Executor,
  id: string,
): Promise<Pick<ConsentRow, 'bureauFolio' | 'avalId'> | undefined> {
  return firstRow(
    db
      .select({ bureauFolio: bureauConsents.bureauFolio, avalId: bureauConsents.avalId })
      .from(bureauConsents)
      .where(eq(bureauConsents.id, id)),
  );
}

/** Every consent of an application, oldest first. */
export function listConsentsOf(db: Executor, userId: string): Promise<ConsentRow[]> {
  return db
    .select()
    .from(bureauConsents)
    .where(eq(bureauConsents.userId, userId))
    .orderBy(asc(bureauConsents.createdAt));
}

/** A guarantor's latest bureau consent: when and with which folio (the contract's evidence). */
export async function latestAvalConsent(db: Executor, avalId: string) {
  return firstRow(
    db
      .select({ at: bureauConsents.createdAt, folio: bureauConsents.bureauFolio })
      .from(bureauConsents)
      .where(eq(bureauConsents.avalId, avalId))
      .orderBy(desc(bureauConsents.createdAt)),
  );
}

/** The folio of the shopkeeper's latest bureau consent. */
export async function latestTitularConsentFolio(db: Executor, userId: string): Promise<string | null> {
  const consent = await firstRow(
    db
      .select({ folio: bureauConsents.bureauFolio })
      .from(bureauConsents)
      .where(and(eq(bureauConsents.userId, userId), isNull(bureauConsents.avalId)))
      .orderBy(desc(bureauConsents.createdAt)),
  );
  return consent?.folio ?? null;
}

/** What a consent audit sends: when the person approved, the PIN they typed (encrypted) and whether it was checked. */
export async function findConsentEvidence(db: Executor, id: string) {
  return firstRow(
    db
      .select({
        createdAt: bureauConsents.createdAt,
        userId: bureauConsents.userId,
        avalId: bureauConsents.avalId,
        pinEncrypted: bureauConsents.pinEncrypted,
        pinVerified: bureauConsents.pinVerified,
      })
      .from(bureauConsents)
      .where(eq(bureauConsents.id, id)),
  );
}
