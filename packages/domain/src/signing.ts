/**
 * Each signer's identity verification and signature (SPEC §2.4, §4), shared by the API (which
 * moves it through the step engine) and the web app (which follows it). A signer is the
 * shopkeeper (person type titular) or one of their guarantors (collateral) on one contract.
 */

/** SPEC §6: the person types of the signing screens. */
export const PERSON_TYPES = ['titular', 'collateral'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

export const SIGNER_STATES = [
  /** A signing link was issued; no identity check yet. */
  'AWAITING_VERIFICATION',
  /** Documents sent; the verifier has not answered. */
  'VERIFYING',
  /** The verifier asked a person to look (the back office decides). */
  'UNDER_REVIEW',
  /** The verifier refused the documents; another attempt is possible while attempts are left. */
  'VERIFICATION_REJECTED',
  /** Identity approved: the signer may sign. */
  'VERIFIED',
  /** Signed: final. */
  'SIGNED',
] as const;
export type SignerState = (typeof SIGNER_STATES)[number];

export interface SignerTransition {
  from: readonly SignerState[];
  to: readonly SignerState[];
  /** Who moves it: the signer on a screen, the verifier's answer, or a person at the lender. */
  actor: 'user' | 'system' | 'staff';
}

/** Every move a signer can make, by name (the audit trail records the name). */
export const SIGNER_TRANSITIONS = {
  /**
   * Documents sent for a first or new check. From VERIFYING too: a verifier that never answered
   * must not block the signer (the unanswered check is superseded; its late answer is ignored).
   */
  'verification-started': {
    from: ['AWAITING_VERIFICATION', 'VERIFICATION_REJECTED', 'VERIFYING'],
    to: ['VERIFYING'],
    actor: 'user',
  },
  /** A new check after an approval (SPEC §2.4: REVERIFICATION, with the re-verification flow). */
  'reverification-started': { from: ['VERIFIED'], to: ['VERIFYING'], actor: 'user' },
  /** The verifier answered the current check. */
  'verification-answered': {
    from: ['VERIFYING'],
    to: ['VERIFIED', 'VERIFICATION_REJECTED', 'UNDER_REVIEW'],
    actor: 'system',
  },
  /** A person at the lender decided a check the verifier sent to review. */
  'review-decided': { from: ['UNDER_REVIEW'], to: ['VERIFIED', 'VERIFICATION_REJECTED'], actor: 'staff' },
  /** The handwritten signature, after an approved check. */
  signed: { from: ['VERIFIED'], to: ['SIGNED'], actor: 'user' },
} as const satisfies Record<string, SignerTransition>;
export type SignerTransitionName = keyof typeof SIGNER_TRANSITIONS;

/**
 * Extra identity-verification attempts the back office may grant one signer (issue 26): one each
 * time they run out, this many in all.
 */
export const EXTRA_ATTEMPTS_MAX = 3;

/** A verifier's answer as the screens know it (SPEC §3). */
export const VERIFICATION_STATUSES = ['APPROVED', 'REJECTED', 'UNDER_REVIEW'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_TYPES = ['VERIFICATION', 'REVERIFICATION'] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

/** Where an answer leaves the signer. */
export const SIGNER_STATE_OF: Record<VerificationStatus, SignerState> = {
  APPROVED: 'VERIFIED',
  REJECTED: 'VERIFICATION_REJECTED',
  UNDER_REVIEW: 'UNDER_REVIEW',
};

/** The identity documents the built-in widget captures, in order. */
export const IDENTITY_DOCUMENT_KINDS = ['id_front', 'id_back', 'selfie'] as const;
export type IdentityDocumentKind = (typeof IDENTITY_DOCUMENT_KINDS)[number];

/** SPEC §5: re-verification only when the last status was APPROVED. */
export function verificationTypeAfter(lastStatus: VerificationStatus | null | undefined): VerificationType {
  return lastStatus === 'APPROVED' ? 'REVERIFICATION' : 'VERIFICATION';
}

/** SPEC §5: null = unknown (another attempt is allowed); 0 or less = no further attempt. */
export function hasAttemptsLeft(verificationsLeft: number | null | undefined): boolean {
  return verificationsLeft === null || verificationsLeft === undefined || verificationsLeft > 0;
}

export function signerAllows(name: SignerTransitionName, from: SignerState, to: SignerState): boolean {
  const transition: SignerTransition = SIGNER_TRANSITIONS[name];
  return transition.from.includes(from) && transition.to.includes(to);
}

/**
 * The name the time-stamp and NOM-151 simulators give (outside production only): no legal value.
 * Kept here, with no zod, because the back office shows it.
 */
export const SIMULATED_SEAL_PROVIDER = 'simulador';
