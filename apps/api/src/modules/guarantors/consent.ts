import { AVAL_STEPS, type AvalType } from '@provee/domain';
import type { ClientAddress } from '../../client-address.js';
import { engineOf, moveApplication, StepConflict, stepAnswer } from '../application/index.js';
import { consentFolio, currentConsentText, queryBureauBriefly, writeConsent } from '../credit/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import type { ConsentDeps, GuarantorDeps } from './deps.js';
import { avalView } from './guarantor.js';
import { findAval, markAvalConsented, type AvalRow } from './guarantors.store.js';

/**
 * Where a guarantor's consent came from: the trusted address and, when a request carried it, the
 * connection's address and the forwarded chain (a consent recorded in the background has neither).
 */
export type ConsentFrom = Pick<ClientAddress, 'ip'> & Partial<ClientAddress> & { userAgent: string | undefined };

/** The guarantor's consent (PIN or own-phone message) and their bureau query, with the move. */
export async function recordAvalConsent(
  deps: ConsentDeps,
  user: UserRow,
  aval: AvalRow,
  evidence: ConsentFrom & { pinVerified: boolean; pin: string; claim?: string; sessionId?: string },
) {
  const steps = AVAL_STEPS[aval.avalType as AvalType];
  const now = deps.clock();
  const folio = consentFolio(now);
  const consent = currentConsentText(deps, 'collateral');
  const { result: queryId } = await moveApplication(engineOf(deps), {
    userId: user.id,
    transition: steps.consent,
    actor: `aval:${aval.id}`,
    ...(evidence.claim ? { claim: evidence.claim } : {}),
    write: async (tx) => {
      // Recorded meanwhile by another request (a second tab, the background job): nothing more.
      if (!(await markAvalConsented(tx, aval.id, now))) throw new StepConflict(null);
      return (
        await writeConsent(deps, tx, {
          userId: user.id,
          avalId: aval.id,
          folio,
          ip: evidence.ip,
          peerIp: evidence.peerIp,
          forwardedFor: evidence.forwardedFor,
          userAgent: evidence.userAgent,
          pinVerified: evidence.pinVerified,
          pin: evidence.pin,
          now,
        })
      ).queryId;
    },
    event: {
      type: 'guarantor.consent_given',
      payload: {
        aval_id: aval.id,
        folio,
        version: consent.version,
        sha256: consent.sha256,
        pin_verified: evidence.pinVerified,
        ...(evidence.sessionId ? { channel: 'reverse-otp', session_id: evidence.sessionId } : { channel: 'pin' }),
      },
    },
  });
  await queryBureauBriefly(deps, queryId);
}

/** Where the application stands after a guarantor's step, with the guarantor as it is now. */
export async function refreshed(deps: Pick<GuarantorDeps, 'db' | 'config'>, userId: string, avalId: string) {
  const [aval, row] = await Promise.all([findAval(deps.db, avalId), findUserById(deps.db, userId)]);
  const answer = await stepAnswer({ db: deps.db, country: deps.config.COUNTRY }, row!);
  return { ...answer, aval: avalView(deps, aval!) };
}
