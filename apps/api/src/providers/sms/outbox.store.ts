import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { smsOutbox } from '../../db/schema.js';

/** The development outbox: every message the outbox provider "sent". */

export async function storeOutboxMessage(db: Db, message: { to: string; body: string }): Promise<void> {
  await db.insert(smsOutbox).values(message);
}

export async function listOutbox(db: Db, to?: string, limit = 50) {
  return db
    .select({ to: smsOutbox.to, body: smsOutbox.body, createdAt: smsOutbox.createdAt })
    .from(smsOutbox)
    .where(to ? eq(smsOutbox.to, to) : undefined)
    .orderBy(desc(smsOutbox.id))
    .limit(limit);
}
