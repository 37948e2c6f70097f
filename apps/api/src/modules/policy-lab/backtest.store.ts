import { and, asc, count, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { creditDecisions, users } from '../../db/schema.js';

/**
 * The shopkeepers' stored decisions a backtest replays (issue 33): read only, like the back office's
 * reports (decision 026): the decisions are credit's, the campaign source the application's.
 */
export interface ReplayScope {
  currency: string;
  /** The range's first instant and the instant after its last day, in the country's time zone. */
  start: Date;
  end: Date;
  utmSource?: string;
}

export interface StoredDecision {
  id: string;
  userId: string;
  policyVersion: string;
  inputs: Record<string, unknown>;
  result: string;
  amount: number;
  createdAt: Date;
}

function inScope(scope: ReplayScope): SQL {
  return and(
    isNull(creditDecisions.avalId),
    eq(creditDecisions.currency, scope.currency),
    gte(creditDecisions.createdAt, scope.start),
    lt(creditDecisions.createdAt, scope.end),
    scope.utmSource === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${creditDecisions.userId} AND ${users.utmSource} = ${scope.utmSource})`,
  )!;
}

export async function countDecisions(db: Executor, scope: ReplayScope): Promise<number> {
  const row = await firstRow(db.select({ total: count() }).from(creditDecisions).where(inScope(scope)));
  return Number(row?.total ?? 0);
}

/** Where a page ended: its last decision's instant as the database wrote it (microseconds kept) and id. */
export interface PageEnd {
  createdAt: string;
  id: string;
}

/**
 * The page after `after` (by date, then id): a keyset walk whose row comparison is an index
 * condition on `credit_decisions_created_idx`, so every page costs the same however deep.
 */
export async function decisionsPage(
  db: Executor,
  scope: ReplayScope,
  after: PageEnd | null,
  size: number,
): Promise<(StoredDecision & { cursor: string })[]> {
  const next = after
    ? sql`(${creditDecisions.createdAt}, ${creditDecisions.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
    : undefined;
  return db
    .select({
      id: creditDecisions.id,
      userId: creditDecisions.userId,
      policyVersion: creditDecisions.policyVersion,
      inputs: creditDecisions.inputs,
      result: creditDecisions.result,
      amount: creditDecisions.amount,
      createdAt: creditDecisions.createdAt,
      // The instant as text, read back as it was (a Date would drop its microseconds and re-read rows).
      cursor: sql<string>`${creditDecisions.createdAt}::text`,
    })
    .from(creditDecisions)
    .where(and(inScope(scope), next))
    .orderBy(asc(creditDecisions.createdAt), asc(creditDecisions.id))
    .limit(size);
}
