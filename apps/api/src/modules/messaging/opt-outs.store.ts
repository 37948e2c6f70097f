import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { avals, messageOptOuts, users } from '../../db/schema.js';

/** Records a number's opt-out; false when it had opted out before. */
export async function insertOptOut(tx: Executor, values: typeof messageOptOuts.$inferInsert): Promise<boolean> {
  const inserted = await tx
    .insert(messageOptOuts)
    .values(values)
    .onConflictDoNothing()
    .returning({ phoneHash: messageOptOuts.phoneHash });
  return inserted.length > 0;
}

export async function hasOptedOut(db: Executor, phoneHash: string): Promise<boolean> {
  const [row] = await db
    .select({ phoneHash: messageOptOuts.phoneHash })
    .from(messageOptOuts)
    .where(eq(messageOptOuts.phoneHash, phoneHash))
    .limit(1);
  return !!row;
}

/** The applications a number belongs to: as the shopkeeper's, or as a guarantor's. */
export async function applicationsOf(tx: Executor, phoneE164: string): Promise<string[]> {
  const own = await tx.select({ id: users.id }).from(users).where(eq(users.phoneE164, phoneE164));
  const guaranteed = await tx
    .select({ id: avals.userId })
    .from(avals)
    .where(and(eq(avals.phoneE164, phoneE164), ne(avals.status, 'REPLACED')));
  return [...new Set([...own, ...guaranteed].map((row) => row.id))];
}
