import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { messageOptOuts } from '../../db/schema.js';

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
