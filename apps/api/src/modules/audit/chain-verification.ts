import type { Executor } from '../../db/client.js';
import { countEventsAfter, eventOfChain, eventsAfter } from './audit.store.js';
import {
  advanceCheckpoint,
  dropCheckpoint,
  readCheckpoint,
  saveCheckpoint,
  type Checkpoint,
} from './checkpoints.store.js';
import { hashEvent } from './hash-event.js';

export type ChainVerification =
  | { valid: true; events: number }
  | { valid: false; events: number; brokenAt: number; reason: 'hash-mismatch' | 'link-mismatch' };

export interface VerifyOptions {
  /** Where a checkpoint that could not be written is reported: the verification answers anyway. */
  log?: { warn(details: object, message: string): void };
}

/** Events read per query while walking a chain: a long chain is never held in memory whole. */
const BATCH = 2_000;

/**
 * Walks the chain's events after `from` (from its first event without it), a batch at a time:
 * each must link to the hash before it and hash to what it holds. The first break is reported,
 * with the chain's total as `events`; a valid walk answers where it reached.
 */
async function walk(
  db: Executor,
  chainId: string,
  from: Checkpoint | undefined,
  seen: (event: { id: number; hash: string }) => void = () => {},
): Promise<{ verification: ChainVerification; reached: Checkpoint | undefined }> {
  let at = from;
  for (;;) {
    const batch = await eventsAfter(db, chainId, at?.eventId ?? 0, BATCH);
    for (const event of batch) {
      const reason =
        event.prevHash !== (at?.hash ?? null)
          ? 'link-mismatch'
          : hashEvent(event) !== event.hash
            ? 'hash-mismatch'
            : null;
      if (reason) {
        const events = (at?.events ?? 0) + (await countEventsAfter(db, chainId, at?.eventId ?? 0));
        return { verification: { valid: false, events, brokenAt: event.id, reason }, reached: undefined };
      }
      seen(event);
      at = { eventId: event.id, hash: event.hash, events: (at?.events ?? 0) + 1 };
    }
    if (batch.length < BATCH) return { verification: { valid: true, events: at?.events ?? 0 }, reached: at };
  }
}

/** A checkpoint is a cache: a read answers even when it cannot be written (a lock, a read-only replica). */
async function quietly(options: VerifyOptions, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    options.log?.warn({ err: error }, 'audit chain checkpoint not written');
  }
}

/**
 * Recomputes every hash and link of a chain from its first event; the first break is reported.
 * The chain's checkpoint must agree with what it names (a chain rewritten consistently from before
 * it verifies, but not to the hash verified then). Valid: the checkpoint moves to the last event.
 * Broken: the checkpoint is dropped, so the reads that start from it walk the whole chain again
 * and report the break too (decision 040).
 */
export async function verifyAuditChain(
  db: Executor,
  chainId: string,
  options: VerifyOptions = {},
): Promise<ChainVerification> {
  const checkpoint = await readCheckpoint(db, chainId);
  let hashThen: string | undefined;
  const { verification, reached } = await walk(db, chainId, undefined, (event) => {
    if (event.id === checkpoint?.eventId) hashThen = event.hash;
  });
  if (!verification.valid) {
    await quietly(options, () => dropCheckpoint(db, chainId));
    return verification;
  }
  if (checkpoint && hashThen !== checkpoint.hash) {
    const reason = hashThen === undefined ? 'link-mismatch' : 'hash-mismatch';
    return { valid: false, events: verification.events, brokenAt: checkpoint.eventId, reason };
  }
  if (reached) await quietly(options, () => saveCheckpoint(db, chainId, reached));
  return verification;
}

/**
 * The same answer for every break after the chain's checkpoint, at the cost of the events after
 * it: the checkpointed event must still hold the hash verified then (one row read, its hash
 * recomputed), and each event after it must link and hash; the checkpoint then moves on. A chain
 * never verified, or whose checkpointed event changed, is walked from its first event. A break
 * before the checkpoint is the full verification's to find (decision 040).
 */
export async function verifyAuditChainSinceCheckpoint(
  db: Executor,
  chainId: string,
  options: VerifyOptions = {},
): Promise<ChainVerification> {
  const checkpoint = await readCheckpoint(db, chainId);
  if (!checkpoint) return verifyAuditChain(db, chainId, options);
  const anchor = await eventOfChain(db, chainId, checkpoint.eventId);
  if (!anchor || anchor.hash !== checkpoint.hash || hashEvent(anchor) !== anchor.hash) {
    return verifyAuditChain(db, chainId, options);
  }
  const { verification, reached } = await walk(db, chainId, checkpoint);
  if (reached && reached.eventId > checkpoint.eventId) {
    await quietly(options, () => advanceCheckpoint(db, chainId, reached));
  }
  return verification;
}
