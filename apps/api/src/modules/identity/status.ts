import {
  REVIEW_COUNTDOWN_SECONDS,
  type IdentityWidget,
  type PersonType,
  type VerificationStatus,
  type VerificationStatusAnswer,
} from '@provee/domain';
import { identityWidget } from '../../providers/identity/index.js';
import type { SignerRow } from '../application/index.js';
import { findCheckProgress } from './checks.store.js';
import type { IdentityDeps } from './deps.js';
import { signerProof } from './external-check.js';
import { attemptsLeft } from './identity-check.js';

/**
 * SPEC §3 verification status: the current check's answer (null while none), attempts left,
 * identity id; and which check that is, with the seconds left of its review countdown (issue 27:
 * SPEC §4's 300 s from the check's start, by the server's clock).
 */
export async function verificationStatus(
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'config'>,
  signer: SignerRow,
): Promise<VerificationStatusAnswer> {
  let status: VerificationStatus | null = null;
  let secondsLeft: number | null = null;
  if (signer.currentVerificationId) {
    const check = await findCheckProgress(deps.db, signer.currentVerificationId);
    status = check && check.status !== 'PENDING' ? (check.status as VerificationStatus) : null;
    if (check) {
      const elapsed = (deps.clock().getTime() - check.createdAt.getTime()) / 1000;
      secondsLeft = Math.max(0, Math.min(REVIEW_COUNTDOWN_SECONDS, Math.ceil(REVIEW_COUNTDOWN_SECONDS - elapsed)));
    }
  }
  return {
    status,
    verifications_left: attemptsLeft(deps, signer),
    mati_identity_id: signer.identityId,
    verification_id: signer.currentVerificationId,
    review_seconds_left: secondsLeft,
  };
}

/** The verification widget the signing page shows this signer (the built-in one, or MetaMap's button). */
export function signerWidget(deps: Pick<IdentityDeps, 'config' | 'secrets'>, signer: SignerRow): IdentityWidget {
  return identityWidget(deps.config, {
    userId: signer.userId,
    signerId: signer.id,
    personType: signer.personType as PersonType,
    identityId: signer.identityId,
    proof: signerProof(deps, signer.id),
  });
}
