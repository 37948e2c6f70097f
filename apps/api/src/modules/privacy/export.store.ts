import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { resultRows } from '../../db/rows.js';

/**
 * The reads of an applicant's export (issue 31): every row of a table that is theirs, whole, as
 * JSON (the service keeps the personal columns the data map names), and the application's facts.
 * Each table is reached from the application the way the export's scopes say (export-person.ts).
 */

/** Rows of `table` that `where` picks, as JSON objects keyed by column (binary columns as `\x…` hex). */
export async function rowsAsJson(
  db: Executor,
  table: string,
  where: SQL,
  limit = 200,
): Promise<Record<string, unknown>[]> {
  const rows = resultRows<{ row: Record<string, unknown> | string }>(
    await db.execute(sql`select to_jsonb(t) as row from ${sql.identifier(table)} t where ${where} limit ${limit}`),
  );
  return rows.map(({ row }) => (typeof row === 'string' ? (JSON.parse(row) as Record<string, unknown>) : row));
}

/** The application's own facts: where it stands, when it began. */
export async function applicationFacts(db: Executor, id: string) {
  const [row] = resultRows<{
    id: string;
    phone: string;
    status: string;
    next_step: string;
    created_at: string;
    updated_at: string;
  }>(
    await db.execute(sql`select id::text as id, phone_e164 as phone, status, next_step,
      created_at::text as created_at, updated_at::text as updated_at from users where id = ${id}`),
  );
  return row;
}

/** The shopkeeper's consents (never a guarantor's): what, which version, when and until when. */
export async function ownConsents(db: Executor, userId: string) {
  return resultRows<{ version: string; folio: string; created_at: string; authorized_until: string }>(
    await db.execute(sql`select consent_version as version, bureau_folio as folio, created_at::text as created_at,
      authorized_until::text as authorized_until from bureau_consents
      where user_id = ${userId} and aval_id is null order by created_at`),
  );
}

/** The credit decisions on the shopkeeper (not a guarantor's) and the lender's decisions. */
export async function decisionsOf(db: Executor, userId: string) {
  const credit = resultRows<{ result: string; amount: number; currency: string; created_at: string }>(
    await db.execute(sql`select result, amount, currency, created_at::text as created_at from credit_decisions
      where user_id = ${userId} and aval_id is null order by created_at`),
  );
  const lender = resultRows<{ outcome: string; amount: number | null; currency: string | null; created_at: string }>(
    await db.execute(sql`select outcome, amount, currency, created_at::text as created_at from lender_decisions
      where user_id = ${userId} order by created_at`),
  );
  return { credit, lender };
}

/** The guarantors named, as ids, types and states only: their data is theirs, not the applicant's. */
export async function guarantorsOf(db: Executor, userId: string) {
  return resultRows<{ id: string; type: string; status: string }>(
    await db.execute(sql`select id::text as id, aval_type as type, status from avals
      where user_id = ${userId} order by created_at`),
  );
}

/** When the application was erased (its audit event), or null while it was not. */
export async function erasedAt(db: Executor, applicationId: string, eventType: string): Promise<string | null> {
  const [row] = resultRows<{ at: string }>(
    await db.execute(sql`select created_at::text as at from audit_events
      where application_id = ${applicationId} and type = ${eventType} order by created_at desc limit 1`),
  );
  return row?.at ?? null;
}

/** How many rows of `table` that `where` picks, and when the first and last were made. */
export async function rowsCount(db: Executor, table: string, where: SQL) {
  // As instants (epoch milliseconds), whatever the server's DateStyle would make of a text.
  const [row] = resultRows<{ count: number | string; first: number | string | null; last: number | string | null }>(
    await db.execute(sql`select count(*) as count, extract(epoch from min(created_at)) * 1000 as first,
      extract(epoch from max(created_at)) * 1000 as last from ${sql.identifier(table)} where ${where}`),
  );
  const instant = (value: number | string | null | undefined) => (value == null ? null : new Date(Number(value)));
  return { count: Number(row?.count ?? 0), first: instant(row?.first), last: instant(row?.last) };
}

/** The weekly sales ranges' descriptions, by id, as the registration screen offered them. */
export async function salesRangeDescriptions(db: Executor): Promise<Map<number, string>> {
  const rows = resultRows<{ id: number; description: string }>(
    await db.execute(sql`select id, description from catalog_sales_ranges`),
  );
  return new Map(rows.map((row) => [Number(row.id), row.description]));
}
