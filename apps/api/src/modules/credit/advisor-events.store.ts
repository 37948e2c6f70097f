import type { Executor } from '../../db/client.js';
import { advisorEvents } from '../../db/schema.js';

/** How shopkeepers chose to continue with an advisor (append-only; the back office's queue reads them). */
export async function insertAdvisorEvent(
  tx: Executor,
  values: { userId: string; contactType: string; createdAt: Date },
): Promise<void> {
  await tx.insert(advisorEvents).values(values);
}
