import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.js';
import { recordDelivery } from './deliveries.store.js';

/**
 * Vendors' webhook deliveries, recorded by (provider, the vendor's id for the delivery) under a
 * unique key (issue 26). A delivery seen before is a replay (the vendor retrying, or someone sending
 * a captured call again): it is answered 200, so the vendor stops, and it changes nothing. Where a
 * delivery has an effect, its record is written in the effect's transaction, so a delivery whose
 * processing failed is not recorded and the vendor's retry still counts.
 */
export class ReplayedDelivery extends Error {
  constructor() {
    super('webhook delivery already processed');
  }
}

/** The id of a delivery the vendor names none for: the SHA-256 of the body it signed. */
export const bodyDigest = (raw: string | Buffer) => createHash('sha256').update(raw).digest('hex');

/** In an effect's transaction: records the delivery, or throws ReplayedDelivery so the effect rolls back. */
export async function claimDelivery(tx: Executor, provider: string, deliveryId: string, at: Date): Promise<void> {
  if (!(await recordDelivery(tx, provider, deliveryId, at))) throw new ReplayedDelivery();
}
