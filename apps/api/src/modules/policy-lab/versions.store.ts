import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { firstRow, resultRows } from '../../db/rows.js';
import { creditPolicies, creditPolicyBacktests, creditPolicyLive, staff } from '../../db/schema.js';

/** The credit policy's versions, the live pointer per country, shadow outcomes and backtests (issue 33). */
export type PolicyRow = typeof creditPolicies.$inferSelect;
export type LiveRow = typeof creditPolicyLive.$inferSelect;
export type BacktestRow = typeof creditPolicyBacktests.$inferSelect;

/** A version with its author's and publisher's names (staff accounts; `system` for the first). */
export type PolicyListRow = PolicyRow & {
  authorName: string | null;
  publisherName: string | null;
  basedOnNumber: number | null;
};

const author = alias(staff, 'author');
const publisher = alias(staff, 'publisher');
const basedOn = alias(creditPolicies, 'based_on');

export async function listPolicies(db: Executor, country: string): Promise<PolicyListRow[]> {
  const rows = await db
    .select({
      policy: creditPolicies,
      authorName: author.name,
      publisherName: publisher.name,
      basedOnNumber: basedOn.number,
    })
    .from(creditPolicies)
    .leftJoin(author, sql`${creditPolicies.author} = 'staff:' || ${author.id}::text`)
    .leftJoin(publisher, sql`${creditPolicies.publishedBy} = 'staff:' || ${publisher.id}::text`)
    .leftJoin(basedOn, eq(basedOn.id, creditPolicies.basedOn))
    .where(eq(creditPolicies.country, country))
    .orderBy(desc(creditPolicies.number));
  return rows.map(({ policy, ...names }) => ({ ...policy, ...names }));
}

export async function findPolicy(db: Executor, id: string): Promise<PolicyRow | undefined> {
  return firstRow(db.select().from(creditPolicies).where(eq(creditPolicies.id, id)));
}

export async function findLive(db: Executor, country: string): Promise<LiveRow | undefined> {
  return firstRow(db.select().from(creditPolicyLive).where(eq(creditPolicyLive.country, country)));
}

/** The country's live pointer, locked to the end of the caller's transaction: policy changes of a country go one at a time. */
export async function lockLive(tx: Executor, country: string): Promise<LiveRow | undefined> {
  return firstRow(tx.select().from(creditPolicyLive).where(eq(creditPolicyLive.country, country)).for('update'));
}

export async function nextNumber(tx: Executor, country: string): Promise<number> {
  const row = await firstRow(
    tx
      .select({ last: sql<number>`coalesce(max(${creditPolicies.number}), 0)::int` })
      .from(creditPolicies)
      .where(eq(creditPolicies.country, country)),
  );
  return (row?.last ?? 0) + 1;
}

export async function insertDraft(
  tx: Executor,
  values: Pick<PolicyRow, 'country' | 'number' | 'label' | 'document' | 'basedOn' | 'author' | 'createdAt'>,
): Promise<PolicyRow> {
  const [row] = await tx
    .insert(creditPolicies)
    .values({ ...values, status: 'DRAFT', updatedAt: values.createdAt })
    .returning();
  return row!;
}

/** A draft's new document, when it is still a draft at the revision its author edited. */
export async function saveDraft(
  tx: Executor,
  id: string,
  revision: number,
  document: Record<string, unknown>,
  at: Date,
): Promise<PolicyRow | undefined> {
  const [row] = await tx
    .update(creditPolicies)
    .set({ document, revision: sql`${creditPolicies.revision} + 1`, updatedAt: at })
    .where(and(eq(creditPolicies.id, id), eq(creditPolicies.status, 'DRAFT'), eq(creditPolicies.revision, revision)))
    .returning();
  return row;
}

export async function discardDraft(tx: Executor, id: string, at: Date): Promise<PolicyRow | undefined> {
  const [row] = await tx
    .update(creditPolicies)
    .set({ status: 'DISCARDED', updatedAt: at })
    .where(and(eq(creditPolicies.id, id), eq(creditPolicies.status, 'DRAFT')))
    .returning();
  return row;
}

/** DRAFT → PUBLISHED at the revision its publisher read: one of any number of concurrent publishes wins. */
export async function markPublished(
  tx: Executor,
  id: string,
  revision: number,
  by: string,
  at: Date,
): Promise<PolicyRow | undefined> {
  const [row] = await tx
    .update(creditPolicies)
    .set({ status: 'PUBLISHED', publishedAt: at, publishedBy: by, updatedAt: at })
    .where(and(eq(creditPolicies.id, id), eq(creditPolicies.status, 'DRAFT'), eq(creditPolicies.revision, revision)))
    .returning();
  return row;
}

export async function pointLive(
  tx: Executor,
  country: string,
  values: { policyId: string; shadowPolicyId: string | null; at: Date; by: string },
): Promise<void> {
  await tx
    .update(creditPolicyLive)
    .set({
      policyId: values.policyId,
      shadowPolicyId: values.shadowPolicyId,
      changedAt: values.at,
      changedBy: values.by,
    })
    .where(eq(creditPolicyLive.country, country));
}

/** Per day of the country, the decisions the shadow version judged too and how many it agreed on. */
export async function shadowAgreementByDay(
  database: Executor,
  policyId: string,
  timeZone: string,
  since: Date,
): Promise<{ day: string; decisions: number; agreed: number }[]> {
  const result = await database.execute(sql`
    SELECT to_char(s.created_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day,
           count(*)::int AS decisions,
           count(*) FILTER (WHERE s.result = d.result)::int AS agreed
      FROM credit_shadow_decisions s
      JOIN credit_decisions d ON d.id = s.decision_id
     WHERE s.policy_id = ${policyId} AND s.created_at >= ${since.toISOString()}
     GROUP BY 1
     ORDER BY 1`);
  return resultRows(result);
}

export async function insertBacktest(
  database: Executor,
  values: Pick<BacktestRow, 'policyId' | 'requestedBy' | 'params' | 'total' | 'createdAt'>,
): Promise<BacktestRow> {
  const [row] = await database
    .insert(creditPolicyBacktests)
    .values({ ...values, status: 'RUNNING' })
    .returning();
  return row!;
}

export async function findBacktest(database: Executor, id: string): Promise<BacktestRow | undefined> {
  return firstRow(database.select().from(creditPolicyBacktests).where(eq(creditPolicyBacktests.id, id)));
}

export async function recordBacktestProgress(database: Executor, id: string, processed: number): Promise<void> {
  await database
    .update(creditPolicyBacktests)
    .set({ processed })
    .where(and(eq(creditPolicyBacktests.id, id), eq(creditPolicyBacktests.status, 'RUNNING')));
}

export async function finishBacktest(
  database: Executor,
  id: string,
  values: { status: 'DONE' | 'FAILED'; processed: number; result: Record<string, unknown> | null; at: Date },
): Promise<BacktestRow | undefined> {
  const [row] = await database
    .update(creditPolicyBacktests)
    .set({ status: values.status, processed: values.processed, result: values.result, finishedAt: values.at })
    .where(and(eq(creditPolicyBacktests.id, id), eq(creditPolicyBacktests.status, 'RUNNING')))
    .returning();
  return row;
}
