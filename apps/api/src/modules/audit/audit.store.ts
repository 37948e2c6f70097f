import { and, asc, count, desc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { auditEvents } from '../../db/schema.js';

/** The audit chains: append-only rows, one chain per application (or per phone before one). */
export type AuditEventRow = typeof auditEvents.$inferSelect;
type NewAuditEvent = Omit<typeof auditEvents.$inferInsert, 'id'>;

/** Until the transaction ends, no one else appends to this chain (a transaction-scoped advisory lock). */
export async function lockChain(tx: Executor, applicationId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${applicationId}))`);
}

/** The hash of the chain's last event, or null for a new chain. */
export async function lastHash(tx: Executor, applicationId: string): Promise<string | null> {
  const last = await firstRow(
    tx
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, applicationId))
      .orderBy(desc(auditEvents.id)),
  );
  return last?.hash ?? null;
}

export async function insertAuditEvent(tx: Executor, event: NewAuditEvent): Promise<number> {
  const [row] = await tx.insert(auditEvents).values(event).returning({ id: auditEvents.id });
  if (!row) throw new Error('audit insert returned no row');
  return row.id;
}

export async function listChain(db: Executor, applicationId: string): Promise<AuditEventRow[]> {
  return db.select().from(auditEvents).where(eq(auditEvents.applicationId, applicationId)).orderBy(asc(auditEvents.id));
}

/** The chain's events after `afterId` (0: from its first), oldest first, `limit` at most: a verification's batch. */
export async function eventsAfter(
  db: Executor,
  applicationId: string,
  afterId: number,
  limit: number,
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.applicationId, applicationId), gt(auditEvents.id, afterId)))
    .orderBy(asc(auditEvents.id))
    .limit(limit);
}

/** How many events the chain holds after `afterId` (0: all of them). */
export async function countEventsAfter(db: Executor, applicationId: string, afterId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditEvents)
    .where(and(eq(auditEvents.applicationId, applicationId), gt(auditEvents.id, afterId)));
  return row?.n ?? 0;
}

/** The chain's newest `limit` events before `beforeId` (the newest of all without it), newest first. */
export async function eventsBefore(
  db: Executor,
  applicationId: string,
  beforeId: number | undefined,
  limit: number,
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.applicationId, applicationId),
        beforeId === undefined ? undefined : lt(auditEvents.id, beforeId),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(limit);
}

/** One event of the chain, by its id (a checkpoint's). */
export async function eventOfChain(
  db: Executor,
  applicationId: string,
  id: number,
): Promise<AuditEventRow | undefined> {
  return firstRow(
    db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, applicationId), eq(auditEvents.id, id))),
  );
}

/** The chain's events of one type since `since` (all of them without it), oldest first: one query, not the chain. */
export async function eventsOfType(
  db: Executor,
  applicationId: string,
  type: string,
  since?: Date,
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.applicationId, applicationId),
        eq(auditEvents.type, type),
        since ? gte(auditEvents.createdAt, since) : undefined,
      ),
    )
    .orderBy(asc(auditEvents.id));
}

/** When the chain last recorded an event of this type, or null. */
export async function lastEventAt(db: Executor, applicationId: string, type: string): Promise<Date | null> {
  const last = await firstRow(
    db
      .select({ at: auditEvents.createdAt })
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, applicationId), eq(auditEvents.type, type)))
      .orderBy(desc(auditEvents.id)),
  );
  return last?.at ?? null;
}
