import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { outgoingMessages, smsOutbox } from '../../db/schema.js';

/** The development outbox: every message the simulators "sent", SMS and WhatsApp. */
export async function storeOutboxMessage(
  db: Db,
  message: { to: string; body: string; channel: 'sms' | 'whatsapp'; providerMessageId: string },
): Promise<void> {
  await db.insert(smsOutbox).values(message);
}

/** The outbox, newest first, with each message's delivery status as the product recorded it. */
export async function listOutbox(db: Db, to?: string, limit = 50) {
  return db
    .select({
      to: smsOutbox.to,
      body: smsOutbox.body,
      channel: smsOutbox.channel,
      createdAt: smsOutbox.createdAt,
      status: outgoingMessages.status,
    })
    .from(smsOutbox)
    .leftJoin(outgoingMessages, eq(outgoingMessages.providerMessageId, smsOutbox.providerMessageId))
    .where(to ? eq(smsOutbox.to, to) : undefined)
    .orderBy(desc(smsOutbox.id))
    .limit(limit);
}
