import type { MessageStatus } from '@provee/domain';
import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { outgoingMessages } from '../../db/schema.js';

export type MessageRow = typeof outgoingMessages.$inferSelect;

/** Where a status stands: a report moves a message only forward; the last three end it. */
const RANK: Record<MessageStatus, number> = {
  pending: 0,
  queued: 1,
  sent: 2,
  delivered: 3,
  read: 4,
  failed: 5,
  undelivered: 5,
  dropped: 5,
};
export const isFinal = (status: MessageStatus) => RANK[status] === 5;
export const isFailure = (status: MessageStatus) => status === 'failed' || status === 'undelivered';
export const advances = (from: MessageStatus, to: MessageStatus) => !isFinal(from) && RANK[to] > RANK[from];

export async function insertMessage(tx: Executor, values: typeof outgoingMessages.$inferInsert): Promise<MessageRow>;
/** `ifNew`: undefined when a row of that id is there already. */
export async function insertMessage(
  tx: Executor,
  values: typeof outgoingMessages.$inferInsert,
  options: { ifNew: true },
): Promise<MessageRow | undefined>;
export async function insertMessage(
  tx: Executor,
  values: typeof outgoingMessages.$inferInsert,
  options?: { ifNew: true },
): Promise<MessageRow | undefined> {
  const insert = tx.insert(outgoingMessages).values(values);
  const [row] = await (options?.ifNew ? insert.onConflictDoNothing() : insert).returning();
  return row;
}

export async function findMessage(db: Executor, id: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(outgoingMessages).where(eq(outgoingMessages.id, id)).limit(1);
  return row;
}

/** The message a provider's report names, locked for the report's transaction. */
export async function lockMessageByProviderId(
  tx: Executor,
  provider: string,
  providerMessageId: string,
): Promise<MessageRow | undefined> {
  const [row] = await tx
    .select()
    .from(outgoingMessages)
    .where(and(eq(outgoingMessages.provider, provider), eq(outgoingMessages.providerMessageId, providerMessageId)))
    .for('update')
    .limit(1);
  return row;
}

/** The row tried after `id` (its fallback), if any. */
export async function findFallback(db: Executor, id: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(outgoingMessages).where(eq(outgoingMessages.fallbackOf, id)).limit(1);
  return row;
}

/**
 * The provider took a pending message: its id for it, and 'queued' unless a report already went
 * further; the sealed text goes at once when no other channel could follow.
 */
export async function markAccepted(
  db: Executor,
  row: Pick<MessageRow, 'id' | 'fallbacks'>,
  providerMessageId: string | null,
  at: Date,
) {
  const keepSealed = row.fallbacks.length > 0;
  await db
    .update(outgoingMessages)
    .set({ providerMessageId, status: 'queued', statusAt: at, ...(keepSealed ? {} : { sealed: null }) })
    .where(and(eq(outgoingMessages.id, row.id), eq(outgoingMessages.status, 'pending')));
  // A report that came first (its row found by id) already moved it; the number it names is ours.
  await db
    .update(outgoingMessages)
    .set({ providerMessageId, ...(keepSealed ? {} : { sealed: null }) })
    .where(and(eq(outgoingMessages.id, row.id), isNull(outgoingMessages.providerMessageId)));
}

/**
 * Ends a message still pending (refused, dropped): false when something else moved it first (a
 * status report, another try), so only one caller goes on to a fallback.
 */
export async function endPending(
  db: Executor,
  id: string,
  change: { status: 'failed' | 'dropped'; errorCode?: string; at: Date },
): Promise<boolean> {
  const ended = await db
    .update(outgoingMessages)
    .set({ status: change.status, errorCode: change.errorCode ?? null, statusAt: change.at, sealed: null })
    .where(and(eq(outgoingMessages.id, id), eq(outgoingMessages.status, 'pending')))
    .returning({ id: outgoingMessages.id });
  return ended.length > 0;
}

/** A message, locked for a report's transaction. */
export async function lockMessage(tx: Executor, id: string): Promise<MessageRow | undefined> {
  const [row] = await tx.select().from(outgoingMessages).where(eq(outgoingMessages.id, id)).for('update').limit(1);
  return row;
}

/** A new status (checked to advance by the caller); the sealed text goes once nothing more will be sent. */
export async function setStatus(
  db: Executor,
  id: string,
  change: { status: MessageStatus; errorCode?: string | null; at: Date; keepSealed: boolean },
) {
  await db
    .update(outgoingMessages)
    .set({
      status: change.status,
      errorCode: change.errorCode ?? null,
      statusAt: change.at,
      ...(change.keepSealed ? {} : { sealed: null }),
    })
    .where(eq(outgoingMessages.id, id));
}

/** An application's messages, newest first (the back office's list). */
export async function listMessagesOf(db: Executor, applicationId: string, limit = 100): Promise<MessageRow[]> {
  return db
    .select()
    .from(outgoingMessages)
    .where(eq(outgoingMessages.applicationId, applicationId))
    .orderBy(desc(outgoingMessages.createdAt), desc(outgoingMessages.id))
    .limit(limit);
}

/** Messages still holding their sealed text: an application's, or (null) those of no application. */
export async function sealedMessages(db: Executor, applicationIds: string[] | null) {
  return db
    .select({ id: outgoingMessages.id, sealed: outgoingMessages.sealed })
    .from(outgoingMessages)
    .where(
      and(
        isNotNull(outgoingMessages.sealed),
        applicationIds === null
          ? isNull(outgoingMessages.applicationId)
          : inArray(outgoingMessages.applicationId, applicationIds),
      ),
    );
}
