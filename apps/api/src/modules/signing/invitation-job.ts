import type { PersonType } from '@provee/domain';
import { AppError } from '../../errors.js';
import { listApprovedAvals } from '../guarantors/index.js';
import type { JobKind } from '../jobs/index.js';
import { SIGNING_INVITATION_JOB } from '../lending/index.js';
import { findUserById } from '../users/index.js';
import type { SigningDeps } from './deps.js';
import { issueContractLink } from './links.js';

/** The approval's job names the application; its fan-out names each signer. */
export interface InvitationData {
  user_id: string;
  person_type?: PersonType;
  aval_id?: string;
}

/**
 * What follows the lender's approval (issue 30): a signing link by SMS to the shopkeeper and to
 * every approved guarantor with a phone (the contract is for the approved amount). The approval's
 * job enqueues one job per signer, in one transaction, so a retry re-sends only the link that
 * failed; each is tried again while it fails for this side. An application that moved on meanwhile
 * (declined, disbursed), an erased one or a signer who signed gets nothing: a refusal (409, 410) is
 * an answer.
 */
export function signingInvitationJob(deps: SigningDeps): JobKind<InvitationData> {
  return {
    name: SIGNING_INVITATION_JOB,
    retryLimit: 10,
    expireInSeconds: 120,
    async run(data) {
      const user = await findUserById(deps.db, data.user_id);
      if (user?.nextStep !== 'APPROVED' || user.status !== 'IN_PROGRESS') return;
      if (!data.person_type) {
        const guarantors = (await listApprovedAvals(deps.db, user.id)).filter((aval) => aval.phoneE164);
        await deps.db.transaction(async (tx) => {
          await deps.jobs.enqueue(tx, SIGNING_INVITATION_JOB, { user_id: user.id, person_type: 'titular' });
          for (const aval of guarantors)
            await deps.jobs.enqueue(tx, SIGNING_INVITATION_JOB, {
              user_id: user.id,
              person_type: 'collateral',
              aval_id: aval.id,
            });
        });
        deps.jobs.wake(SIGNING_INVITATION_JOB);
        return;
      }
      try {
        await issueContractLink(deps, user, { person_type: data.person_type, aval_id: data.aval_id }, 'system');
      } catch (error) {
        // 409 (moved on, signed) and 410 (erased meanwhile) are answers, final: a retry would get the same.
        if (error instanceof AppError && (error.statusCode === 409 || error.statusCode === 410)) return;
        throw error;
      }
    },
  };
}
