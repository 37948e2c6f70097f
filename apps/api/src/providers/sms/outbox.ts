import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { smsOutbox } from '../../db/schema.js';
import type { SmsProvider } from './index.js';

/** Development and tests: every message is stored, and /dev/outbox shows them. */
export function createOutboxSms(db: Db): SmsProvider {
  return {
    name: 'outbox',
    async send({ to, body }) {
      await db.insert(smsOutbox).values({ to, body });
    },
  };
}

export async function listOutbox(db: Db, to?: string, limit = 50) {
  return db
    .select({ to: smsOutbox.to, body: smsOutbox.body, createdAt: smsOutbox.createdAt })
    .from(smsOutbox)
    .where(to ? eq(smsOutbox.to, to) : undefined)
    .orderBy(desc(smsOutbox.id))
    .limit(limit);
}
