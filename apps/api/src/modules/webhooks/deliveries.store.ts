import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { changedAnyRow } from '../../db/rows.js';
import { webhookDeliveries } from '../../db/schema.js';

/** Vendors' webhook deliveries, one row per (provider, the vendor's id for the delivery). */

export async function deliverySeen(db: Executor, provider: string, deliveryId: string): Promise<boolean> {
  const [row] = await db
    .select({ provider: webhookDeliveries.provider })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.provider, provider), eq(webhookDeliveries.deliveryId, deliveryId)))
    .limit(1);
  return Boolean(row);
}

/** Records the delivery; false when it was recorded already (by an earlier or a concurrent call). */
export async function recordDelivery(db: Executor, provider: string, deliveryId: string, at: Date): Promise<boolean> {
  return changedAnyRow(
    db
      .insert(webhookDeliveries)
      .values({ provider, deliveryId, receivedAt: at })
      .onConflictDoNothing()
      .returning({ provider: webhookDeliveries.provider }),
  );
}
