import { and, asc, eq, getTableColumns, gte, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { preparedPerDatabase } from '../../db/prepared.js';
import { firstRow, returnedRow } from '../../db/rows.js';
import { avals, businessAddresses, businesses, creditDecisions, lenderDecisions, users } from '../../db/schema.js';

/**
 * The applicant's tables: the application row (`users`: the step engine in modules/application
 * writes it, this store reads it), their business and its address (written with the registration
 * steps). The birth date and the tax id are stored encrypted; applicant.ts decrypts them.
 */
export type UserRow = typeof users.$inferSelect;
export type BusinessRow = typeof businesses.$inferSelect;
export type BusinessAddressRow = typeof businessAddresses.$inferSelect;
/** What the business step writes (the row's key is the application). */
export type BusinessValues = Omit<BusinessRow, 'userId'>;
/** What the address step writes; the back office's review columns are its own. */
export type BusinessAddressValues = Omit<
  BusinessAddressRow,
  'userId' | 'neighborhoodReviewedAt' | 'neighborhoodReviewedBy'
>;

export async function findUserByPhone(db: Executor, phoneE164: string): Promise<UserRow | undefined> {
  return firstRow(db.select().from(users).where(eq(users.phoneE164, phoneE164)));
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return firstRow(db.select().from(users).where(eq(users.id, id)));
}

/** Another application holding this tax id (by its keyed hash), if any. */
export async function findOtherApplicationWithTaxId(
  db: Executor,
  taxIdHash: string,
  exceptId: string,
): Promise<{ id: string } | undefined> {
  return firstRow(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.taxIdHash, taxIdHash), ne(users.id, exceptId))),
  );
}

/** The application row with its business and address, in one query. */
export async function findApplicantRows(
  db: Executor,
  id: string,
): Promise<{ user: UserRow; business: BusinessRow | null; address: BusinessAddressRow | null } | undefined> {
  return firstRow(
    db
      .select({ user: users, business: businesses, address: businessAddresses })
      .from(users)
      .leftJoin(businesses, eq(businesses.userId, users.id))
      .leftJoin(businessAddresses, eq(businessAddresses.userId, users.id))
      .where(eq(users.id, id)),
  );
}

export async function upsertBusiness(tx: Executor, userId: string, values: BusinessValues): Promise<void> {
  await tx
    .insert(businesses)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: businesses.userId, set: values });
}

export async function upsertBusinessAddress(
  tx: Executor,
  userId: string,
  values: BusinessAddressValues,
): Promise<void> {
  await tx
    .insert(businessAddresses)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: businessAddresses.userId, set: values });
}

/** A guarantor as the user answer lists it. */
export interface AvalSummary {
  avalType: string;
  phoneE164: string | null;
}

export interface LenderApproval {
  amount: number;
  currency: string;
  term_months: number;
  annual_rate: number;
  decided_at: string;
}

// The user answer lists the current guarantors and the detail adds the latest pre-approval. They
// are read here, in the users' own query, and not through modules/guarantors and modules/credit:
// both import this module, and on PGlite every extra query is a round trip to the database's
// thread on the read the web app makes most (docs/PERFORMANCE.md).

/** The application's guarantors, but those replaced, oldest first. */
export async function listCurrentAvals(db: Executor, userId: string): Promise<AvalSummary[]> {
  return db
    .select({ avalType: avals.avalType, phoneE164: avals.phoneE164 })
    .from(avals)
    .where(and(eq(avals.userId, userId), ne(avals.status, 'REPLACED')))
    .orderBy(asc(avals.createdAt));
}

// `users.id` is spelled out in the subqueries: Drizzle writes a column inside a selected `sql` as its
// bare name, which there would mean the subquery's own `id`.
const userDetailQuery = preparedPerDatabase((db) => {
  const { id, userType, nextStep, status, phoneE164, name, lastname, maternalLastname, dobEncrypted } =
    getTableColumns(users);
  return db
    .select({
      // What the answer and the Mexican RFC suggestion use, nothing more.
      user: { id, userType, nextStep, status, phoneE164, name, lastname, maternalLastname, dobEncrypted },
      avals: sql<AvalSummary[]>`coalesce((
        select json_agg(json_build_object('avalType', a.aval_type, 'phoneE164', a.phone_e164) order by a.created_at)
        from ${avals} a where a.user_id = users.id and a.status <> 'REPLACED'), '[]'::json)`,
      preApproval: sql<{ amount: number; currency: string } | null>`(
        select json_build_object('amount', d.amount, 'currency', d.currency) from ${creditDecisions} d
        where d.user_id = users.id and d.aval_id is null and d.result = 'APPROVED'
        order by d.created_at desc limit 1)`,
      // The lender's approval after PENDING_APPROVAL (issue 30): the final amount and terms.
      lenderApproval: sql<LenderApproval | null>`(
        select json_build_object('amount', l.amount, 'currency', l.currency, 'term_months', l.term_months,
          'annual_rate', l.annual_rate_bps / 100.0, 'decided_at', l.created_at)
        from ${lenderDecisions} l where l.user_id = users.id and l.outcome = 'APPROVED')`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('user_detail');
});

/** The user with their current guarantors and latest pre-approval, in one prepared query. */
export async function findUserDetail(db: Db, id: string) {
  const [row] = await userDetailQuery(db).execute({ id });
  return row;
}

/** The business address, locked until the transaction ends (a staff review of a typed neighbourhood). */
export async function lockBusinessAddress(tx: Executor, userId: string): Promise<BusinessAddressRow | undefined> {
  const [address] = await tx.select().from(businessAddresses).where(eq(businessAddresses.userId, userId)).for('update');
  return address;
}

/** Marks the typed neighbourhood reviewed (confirmed as typed, or replaced by a catalogue one). */
export async function recordAddressReview(
  tx: Executor,
  userId: string,
  review: Partial<
    Pick<
      typeof businessAddresses.$inferInsert,
      'neighborhood' | 'zipCode' | 'municipalityId' | 'city' | 'state' | 'neighborhoodTyped'
    >
  > & { neighborhoodReviewedAt: Date; neighborhoodReviewedBy: string; updatedAt: Date },
): Promise<void> {
  await tx.update(businessAddresses).set(review).where(eq(businessAddresses.userId, userId));
}

/** The lender's own id for the application (partner API); undefined when there is no such application. */
export async function setExternalId(tx: Executor, id: string, externalId: string | null): Promise<UserRow | undefined> {
  return returnedRow(tx.update(users).set({ externalId }).where(eq(users.id, id)).returning());
}

/** Where the lender's sync stands: the transaction that last wrote the last application it read, and its id. */
export interface ChangeCursor {
  changeTx: string;
  id: string;
}

/**
 * Applications by the transaction that last wrote them, oldest first, changed at or after `since`
 * and after `after` (the partner API's cursor paging). Only rows of transactions older than every
 * one still running are read: a change that commits late has a transaction id at least as high,
 * so it comes after any cursor handed out meanwhile; a change moves an application to the end.
 */
export async function applicationsChangedSince(
  db: Executor,
  options: { since?: Date | undefined; after?: ChangeCursor | undefined; limit: number },
) {
  const { since, after, limit } = options;
  return db
    .select({
      id: users.id,
      externalId: users.externalId,
      nextStep: users.nextStep,
      status: users.status,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      changeTx: users.changeTx,
    })
    .from(users)
    .where(
      and(
        sql`${users.changeTx} < pg_snapshot_xmin(pg_current_snapshot())`,
        since ? gte(users.updatedAt, since) : undefined,
        after ? sql`(${users.changeTx}, ${users.id}) > (${after.changeTx}::xid8, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(users.changeTx), asc(users.id))
    .limit(limit);
}
