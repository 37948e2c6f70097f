import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
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
  const [last] = await tx
    .select({ hash: auditEvents.hash })
    .from(auditEvents)
    .where(eq(auditEvents.applicationId, applicationId))
    .orderBy(desc(auditEvents.id))
    .limit(1);
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
