import { createHmac } from 'node:crypto';
import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { afterCommit } from '../../db/after-commit.js';
import type { Executor } from '../../db/client.js';
import { countBusinessEvent } from '../../observability/metrics.js';
import type { Secrets } from '../../secrets.js';
import { recordPublicEvents } from '../event-feed/index.js';
import { eventsBefore, insertAuditEvent, lastHash, listChain, lockChain } from './audit.store.js';
import { hashEvent } from './hash-event.js';

export { verifyAuditChain, type ChainVerification } from './chain-verification.js';

export interface AuditEventInput {
  applicationId: string;
  /** Who did it: 'user:<id>', 'staff:<id>', 'system'. */
  actor: string;
  /** What happened, e.g. 'phone.proven', 'step.saved', 'consent.given'. */
  type: string;
  payload: Record<string, unknown>;
  /** When it happened, from the app's clock (tests move it by hand). */
  at: Date;
}

export interface AuditEvent extends Omit<AuditEventInput, 'at'> {
  id: number;
  createdAt: Date;
  prevHash: string | null;
  hash: string;
}

/**
 * The chain of a phone with no application yet (phone proofs, an age refusal): keyed by an HMAC of
 * the number, so the audit table holds no phone number and the id cannot be guessed from one.
 */
export function phoneAuditId(app: { secrets: Secrets }, phoneE164: string): string {
  return `phone:${createHmac('sha256', app.secrets.key('audit-phone')).update(phoneE164).digest('hex')}`;
}

/**
 * Appends one event to an application's chain. A transaction-scoped advisory lock on the
 * application id serialises concurrent appends, so every event links to the one before it.
 * Given the caller's transaction, the event commits (or rolls back) with the change it records
 * (in it directly: a savepoint would cost two more statements and undo nothing the caller keeps).
 */
export async function appendAuditEvent(db: Executor, { at, ...input }: AuditEventInput): Promise<AuditEvent> {
  // A JSON round trip keeps exactly what jsonb will store (no undefined, no Date objects).
  const payload = JSON.parse(JSON.stringify(input.payload)) as Record<string, unknown>;
  const append = async (tx: Executor) => {
    await lockChain(tx, input.applicationId);
    const unhashed = { ...input, payload, createdAt: at, prevHash: await lastHash(tx, input.applicationId) };
    const hash = hashEvent(unhashed);
    const id = await insertAuditEvent(tx, { ...unhashed, hash });
    // What the lender's systems hear of it (issue 30), in the same transaction.
    await recordPublicEvents(tx, { ...input, payload, at });
    // The business counters of the metrics, once the change it records has committed.
    afterCommit(tx, () => countBusinessEvent(input.type, payload));
    return { ...unhashed, id, hash };
  };
  return is(db, PgTransaction) ? append(db) : db.transaction(append);
}

export async function listAuditEvents(db: Executor, applicationId: string): Promise<AuditEvent[]> {
  return listChain(db, applicationId);
}

/**
 * A page of a chain read from its newest end: the `limit` events before `before` (the newest
 * without it), oldest first, and the cursor of the page before them (null: none older).
 */
export async function auditEventPage(
  db: Executor,
  applicationId: string,
  { before, limit }: { before?: number | undefined; limit: number },
): Promise<{ events: AuditEvent[]; olderCursor: number | null }> {
  const newestFirst = await eventsBefore(db, applicationId, before, limit + 1);
  const events = newestFirst.slice(0, limit).reverse();
  return { events, olderCursor: newestFirst.length > limit ? events[0]!.id : null };
}
