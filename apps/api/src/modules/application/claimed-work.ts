import type { TransitionName } from '@provee/domain';
import { claimStep, releaseClaim, type EngineDeps } from './application.service.js';

/**
 * Claims the step, then does the work that must come before the move (checking a PIN, hashing a
 * password): a duplicate is refused before the work, and work that fails gives the claim back so
 * the user can try again (its error is thrown on). The claim is for the move (`moveApplication`'s
 * `claim`), with what the work answered.
 */
export async function workUnderClaim<T>(
  deps: EngineDeps,
  userId: string,
  transition: TransitionName,
  work: () => Promise<T>,
): Promise<{ claim: string; result: T }> {
  const claim = await claimStep(deps, userId, transition);
  try {
    return { claim, result: await work() };
  } catch (error) {
    await releaseClaim(deps, userId, claim);
    throw error;
  }
}
