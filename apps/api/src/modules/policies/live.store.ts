import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { creditPolicies, creditPolicyLive, creditShadowDecisions } from '../../db/schema.js';

/** What deciding reads and writes of the policy's versions: the live one (and shadow), version 1, shadow outcomes. */
export type PolicyRow = typeof creditPolicies.$inferSelect;

/** The live version and the shadow one with their documents, in one read (each decision makes it). */
export async function readLiveVersions(database: Executor, country: string) {
  const shadow = alias(creditPolicies, 'shadow');
  return firstRow(
    database
      .select({
        id: creditPolicies.id,
        label: creditPolicies.label,
        document: creditPolicies.document,
        shadowId: shadow.id,
        shadowLabel: shadow.label,
        shadowDocument: shadow.document,
      })
      .from(creditPolicyLive)
      .innerJoin(creditPolicies, eq(creditPolicies.id, creditPolicyLive.policyId))
      .leftJoin(shadow, eq(shadow.id, creditPolicyLive.shadowPolicyId))
      .where(eq(creditPolicyLive.country, country)),
  );
}

/** Version 1 of a country and its live pointer, unless the country has versions already (any process, any number of times). */
export async function insertFirstVersion(
  tx: Executor,
  values: { country: string; label: string; document: Record<string, unknown>; at: Date },
): Promise<PolicyRow | undefined> {
  const [row] = await tx
    .insert(creditPolicies)
    .values({
      country: values.country,
      number: 1,
      label: values.label,
      document: values.document,
      status: 'PUBLISHED',
      author: 'system',
      createdAt: values.at,
      updatedAt: values.at,
      publishedAt: values.at,
      publishedBy: 'system',
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return undefined;
  await tx
    .insert(creditPolicyLive)
    .values({ country: values.country, policyId: row.id, changedAt: values.at, changedBy: 'system' })
    .onConflictDoNothing();
  return row;
}

export async function insertShadowDecision(
  tx: Executor,
  values: typeof creditShadowDecisions.$inferInsert,
): Promise<void> {
  await tx.insert(creditShadowDecisions).values(values).onConflictDoNothing();
}
