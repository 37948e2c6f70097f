import type { VerificationStatusAnswer } from '@provee/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignerRow } from '../application/index.js';
import { findSigner, nextSignal, verificationStatus, type IdentityDeps } from '../identity/index.js';

/** How often a waiting request reads the database when no wake-up came (an answer written by another process). */
const RECHECK_MS = 1_000;

/**
 * The status as GET …/mati-status answers it, once the signer's current check has an answer, or
 * after `seconds` (issue 27: the review screen shows the answer as soon as the server has it). An
 * answer of the check named `previous` does not count: the screen waits for a newer one. Ends
 * early, with the status as it is, when `signal` aborts (the phone went away, the server stops).
 */
export async function statusWhenAnswered(
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'config'>,
  signer: SignerRow,
  options: { seconds: number; previous?: string; signal: AbortSignal },
): Promise<VerificationStatusAnswer> {
  const until = Date.now() + options.seconds * 1000;
  let current = signer;
  for (;;) {
    const answer = await verificationStatus(deps, current);
    const left = until - Date.now();
    if (answer.status !== null && answer.verification_id !== options.previous) return answer;
    if (left <= 0 || options.signal.aborted) return answer;
    await nextSignal(signer.id, Math.min(left, RECHECK_MS), options.signal);
    // A new check may have started meanwhile (another tab): read the signer again.
    current = (await findSigner(deps.db, signer.id)) ?? current;
  }
}

/** Held status requests of one signer in a process, at most: more answer at once (the review screen holds one). */
export const MAX_HELD_PER_SIGNER = 2;

export type HeldStatus = (
  signer: SignerRow,
  options: { seconds: number; previous?: string },
  call: { request: FastifyRequest; reply: FastifyReply },
) => Promise<VerificationStatusAnswer>;

/**
 * GET …/mati-status with `wait`: held until the answer is in (statusWhenAnswered), let go when the
 * phone leaves and when the server stops (`preClose`: a shutdown waits for no phone). A signer past
 * MAX_HELD_PER_SIGNER gets the status as it is, so one link cannot pile up waiting requests.
 */
export function heldStatusRequests(
  app: FastifyInstance,
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'config'>,
): HeldStatus {
  const live = new Set<AbortController>();
  const heldBySigner = new Map<string, number>();
  app.addHook('preClose', (done) => {
    for (const waiting of live) waiting.abort();
    done();
  });
  return async (signer, options, { request, reply }) => {
    const held = heldBySigner.get(signer.id) ?? 0;
    if (held >= MAX_HELD_PER_SIGNER) return verificationStatus(deps, signer);
    heldBySigner.set(signer.id, held + 1);
    const waiting = new AbortController();
    const leave = () => waiting.abort();
    live.add(waiting);
    reply.raw.once('close', leave);
    // Gone before the link was checked: nothing to wait for.
    if (request.raw.destroyed || reply.raw.destroyed) leave();
    try {
      return await statusWhenAnswered(deps, signer, { ...options, signal: waiting.signal });
    } finally {
      live.delete(waiting);
      reply.raw.off('close', leave);
      const left = (heldBySigner.get(signer.id) ?? 1) - 1;
      if (left > 0) heldBySigner.set(signer.id, left);
      else heldBySigner.delete(signer.id);
    }
  };
}
