import { AppError } from '../../errors.js';
import { isErasedPhone } from '../application/index.js';
import type { JobKind } from '../jobs/index.js';
import { findSigner } from '../identity/index.js';
import type { SigningDeps } from './deps.js';
import { recordCopyNotSent, sendCopy } from './links.js';

/** The signed copy's message: enqueued in the signature's transaction, sent by the job queue. */
export const CONTRACT_COPY_JOB = 'contract-copy-sms';

/**
 * SPEC §2.4's copy of the signed contract, as a job: it issues the copy's link and enqueues its
 * message in one transaction (modules/messaging sends it, again while the provider fails); tried
 * again while that cannot be written; when every try failed, the trail says so and the back
 * office can send it again.
 */
export function contractCopyJob(deps: SigningDeps): JobKind<{ signer_id: string }> {
  return {
    name: CONTRACT_COPY_JOB,
    retryLimit: 14,
    expireInSeconds: 120,
    async run({ signer_id: signerId }, { last }) {
      const signer = await findSigner(deps.db, signerId);
      // An erased signer has no number left to send to (issue 31): nothing to do, ever.
      if (!signer || isErasedPhone(signer.phoneE164)) return;
      try {
        await sendCopy(deps, signer);
      } catch (error) {
        // A refusal (409) or an erasure that committed meanwhile (410) is final: retrying gets the same.
        if (error instanceof AppError && (error.statusCode === 409 || error.statusCode === 410)) return;
        if (last) await recordCopyNotSent(deps, signer);
        throw error;
      }
    },
  };
}
