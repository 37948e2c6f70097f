import { describe, expect, it } from 'vitest';
import {
  hasAttemptsLeft,
  SIGNER_STATE_OF,
  SIGNER_STATES,
  SIGNER_TRANSITIONS,
  signerAllows,
  verificationTypeAfter,
  type SignerState,
  type SignerTransition,
} from './signing.js';

describe('signer state machine', () => {
  it('reaches every state from AWAITING_VERIFICATION, and SIGNED is final', () => {
    const seen: SignerState[] = ['AWAITING_VERIFICATION'];
    for (let i = 0; i < seen.length; i++) {
      for (const transition of Object.values(SIGNER_TRANSITIONS) as SignerTransition[]) {
        if (!transition.from.includes(seen[i]!)) continue;
        for (const to of transition.to) if (!seen.includes(to)) seen.push(to);
      }
    }
    expect([...seen].sort()).toEqual([...SIGNER_STATES].sort());
    expect((Object.values(SIGNER_TRANSITIONS) as SignerTransition[]).some((t) => t.from.includes('SIGNED'))).toBe(
      false,
    );
  });

  it('signs only after an approval; an answer lands where SIGNER_STATE_OF says', () => {
    expect(signerAllows('signed', 'VERIFIED', 'SIGNED')).toBe(true);
    for (const from of SIGNER_STATES.filter((state) => state !== 'VERIFIED'))
      expect(signerAllows('signed', from, 'SIGNED')).toBe(false);
    for (const target of Object.values(SIGNER_STATE_OF))
      expect(signerAllows('verification-answered', 'VERIFYING', target)).toBe(true);
    expect(signerAllows('verification-started', 'UNDER_REVIEW', 'VERIFYING')).toBe(false);
  });

  it('SPEC §5: re-verification only after APPROVED; null attempts = unknown, 0 or less = none', () => {
    expect(verificationTypeAfter('APPROVED')).toBe('REVERIFICATION');
    for (const status of ['REJECTED', 'UNDER_REVIEW', null, undefined] as const)
      expect(verificationTypeAfter(status)).toBe('VERIFICATION');
    expect([null, undefined, 1, 3].map(hasAttemptsLeft)).toEqual([true, true, true, true]);
    expect([0, -1].map(hasAttemptsLeft)).toEqual([false, false]);
  });
});
