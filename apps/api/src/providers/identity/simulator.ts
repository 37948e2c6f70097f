import type { VerificationStatus } from '@provee/domain';

/**
 * The built-in verifier: answers a check IDENTITY_SIMULATOR_DELAY_MS after the documents arrive,
 * deterministically from the signer's tax id, so every screen can be tried (README, "Test
 * identities"). The bureau simulator uses 999-0000001…5; these follow on:
 *
 * | cédula        | RFC date part | answer                                       |
 * |---------------|---------------|----------------------------------------------|
 * | 999-0006???-? | 900106        | REJECTED                                     |
 * | 999-0007???-? | 900107        | UNDER_REVIEW (a person decides)              |
 * | 999-0008???-? | 900108        | never answers (the review screen times out)  |
 *
 * ('?': any digits, so each test can have its own applicant; the bureau gives them a clean report.)
 * Every other tax id is APPROVED.
 */
export const IDENTITY_TEST_CASES = { rejected: 6, underReview: 7, silent: 8 } as const;

/** The simulator's answer for a signer's tax id; null = it never answers. */
export function simulatedAnswer(country: 'do' | 'mx', taxId: string): VerificationStatus | null {
  const match =
    country === 'do' ? /^9990(00[6-8])\d{4}$/.exec(taxId) : /^[A-ZÑ&]{4}90010([6-8])/.exec(taxId.toUpperCase());
  switch (match ? Number(match[1]) : 0) {
    case IDENTITY_TEST_CASES.rejected:
      return 'REJECTED';
    case IDENTITY_TEST_CASES.underReview:
      return 'UNDER_REVIEW';
    case IDENTITY_TEST_CASES.silent:
      return null;
    default:
      return 'APPROVED';
  }
}
