import type { Executor } from '../../db/client.js';
import { clientErrors } from '../../db/schema.js';

/** Failed calls the web app reported, kept for the team. */
type NewClientError = Omit<typeof clientErrors.$inferInsert, 'id'>;

export async function recordClientError(db: Executor, report: NewClientError): Promise<void> {
  await db.insert(clientErrors).values(report);
}
