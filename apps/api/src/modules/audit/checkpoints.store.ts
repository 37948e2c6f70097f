import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { auditChainCheckpoints as checkpoints } from '../../db/schema.js';
import { takeFromExcluded } from '../../db/upsert.js';

/**
 * How far a chain was verified (decision 040): its last verified event, that event's hash, and how
 * many events the chain holds up to it. A cache of verification work, nothing more.
 */
export interface Checkpoint {
  eventId: number;
  hash: string;
  events: number;
}

export async function readCheckpoint(db: Executor, chainId: string): Promise<Checkpoint | undefined> {
  return firstRow(
    db
      .select({ eventId: checkpoints.eventId, hash: checkpoints.hash, events: checkpoints.events })
      .from(checkpoints)
      .where(eq(checkpoints.applicationId, chainId)),
  );
}

/** After a walk from the chain's first event: written, or moved on, never moved back. */
export async function saveCheckpoint(db: Executor, chainId: string, at: Checkpoint): Promise<void> {
  await db
    .insert(checkpoints)
    .values({ applicationId: chainId, ...at, verifiedAt: sql`now()` })
    .onConflictDoUpdate({
      target: checkpoints.applicationId,
      set: takeFromExcluded(checkpoints, ['eventId', 'hash', 'events', 'verifiedAt']),
      setWhere: lt(checkpoints.eventId, sql`excluded.event_id`),
    });
}

/**
 * After a walk from the checkpoint: moved on only while the row is still there (a full
 * verification that found a break dropped it: it stays dropped) and behind where this walk reached
 * (two reads at once never move it back).
 */
export async function advanceCheckpoint(db: Executor, chainId: string, at: Checkpoint): Promise<void> {
  await db
    .update(checkpoints)
    .set({ ...at, verifiedAt: sql`now()` })
    .where(and(eq(checkpoints.applicationId, chainId), lt(checkpoints.eventId, at.eventId)));
}

export async function dropCheckpoint(db: Executor, chainId: string): Promise<void> {
  await db.delete(checkpoints).where(eq(checkpoints.applicationId, chainId));
}
