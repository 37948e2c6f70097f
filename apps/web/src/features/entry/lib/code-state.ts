import type { CodeSent } from '@provee/domain';

/**
 * What the screen that asked for a code hands to the code screen (issue 27): the answer as it came
 * and when — the code sent (`sent`), or none sent within the resend interval (`notSent`: the 429's
 * fields) — and whether the tab is proving its number again (`resume`). Kept in the history entry,
 * so a reload shows the same, with the real countdowns.
 */
export interface CodeRequestOutcome {
  at: number;
  sent?: CodeSent['data'];
  notSent?: Record<string, unknown>;
  resume?: boolean;
}

/** What the code screen says: a code sent now, or the last one (until `expiresAt`), or none. */
export interface CodeScreenState {
  sentNow: boolean;
  /** When another code can be asked (ms since the epoch). */
  resendAt: number;
  /** When the code the person has stops working, when one does. */
  expiresAt?: number | undefined;
  resume: boolean;
}

export function codeScreenState(outcome: CodeRequestOutcome | null, now: number, waitSeconds: number): CodeScreenState {
  const resume = outcome?.resume === true;
  if (outcome?.sent) {
    return {
      sentNow: true,
      resendAt: outcome.at + outcome.sent.resend_after_seconds * 1000,
      expiresAt: Date.parse(outcome.sent.expires_at),
      resume,
    };
  }
  if (outcome?.notSent) {
    const { retry_after_seconds: wait, code_expires_at: expires } = outcome.notSent;
    const expiresAt = typeof expires === 'string' ? Date.parse(expires) : NaN;
    return {
      sentNow: false,
      resendAt: outcome.at + (typeof wait === 'number' ? wait : waitSeconds) * 1000,
      ...(Number.isFinite(expiresAt) ? { expiresAt } : {}),
      resume,
    };
  }
  // Opened without an answer (a link): as if a code had just been sent.
  return { sentNow: true, resendAt: now + waitSeconds * 1000, resume };
}
