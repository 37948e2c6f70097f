import { createHash } from 'node:crypto';
import { BureauError } from './bureau-error.js';
import type { BureauProvider, BureauReport, BureauSubject } from './types.js';

/**
 * A credit bureau that answers like one: a report derived deterministically from the tax id,
 * after a configurable latency. Test identities (the cédula's first ten digits, or the RFC's
 * birth-date part) give every case a tester needs:
 *
 * | cédula          | RFC date part | answer                                                   |
 * |-----------------|---------------|----------------------------------------------------------|
 * | 999-0000001-?   | 900101        | strong history: score 780, approved                       |
 * | 999-0000002-?   | 900102        | delinquent: score 430, 3 late accounts — rejected         |
 * | 999-0000003-?   | 900103        | thin file: no accounts, no score                         |
 * | 999-0000004-?   | 900104        | slow: answers after BUREAU_SLOW_MS (clean report)         |
 * | 999-0000005-?   | 900105        | failing: errors on the first 3 tries, then a clean report |
 *
 * ('?' is whatever check digit makes the cédula valid.) Every other tax id gets a clean report.
 */
export const TEST_IDENTITIES = { strong: 1, delinquent: 2, thinFile: 3, slow: 4, failing: 5 } as const;
export const FAILING_ATTEMPTS = 3;

function identity(subject: BureauSubject): number | null {
  if (subject.country === 'do') {
    const match = /^99900000(0[1-5])\d$/.exec(subject.taxId);
    return match ? Number(match[1]) : null;
  }
  const match = /^[A-ZÑ&]{4}90010([1-5])/.exec(subject.taxId);
  return match ? Number(match[1]) : null;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new BureauError('bureau query aborted'));
      },
      { once: true },
    );
  });

function cleanReport(subject: BureauSubject, folio: string): BureauReport {
  const digest = createHash('sha256').update(subject.taxId).digest();
  return {
    folio,
    score: 620 + (digest[0]! % 140),
    open_accounts: 1 + (digest[1]! % 4),
    delinquencies: 0,
    worst_past_due_delay_days: 0,
    recent_inquiries: digest[2]! % 4,
  };
}

export function createBureauSimulator(options: { latencyMs: number; slowMs: number }): BureauProvider {
  return {
    name: 'simulator',
    needsPerson: false,
    async query(subject, signal) {
      const who = identity(subject);
      const folio = `SIM-${createHash('sha256').update(`${subject.consentFolio}:${subject.taxId}`).digest('hex').slice(0, 12).toUpperCase()}`;
      await sleep(who === TEST_IDENTITIES.slow ? options.slowMs : options.latencyMs, signal);
      switch (who) {
        case TEST_IDENTITIES.strong:
          return {
            folio,
            score: 780,
            open_accounts: 4,
            delinquencies: 0,
            worst_past_due_delay_days: 0,
            recent_inquiries: 1,
          };
        case TEST_IDENTITIES.delinquent:
          return {
            folio,
            score: 430,
            open_accounts: 5,
            delinquencies: 3,
            worst_past_due_delay_days: 120,
            recent_inquiries: 6,
          };
        case TEST_IDENTITIES.thinFile:
          return {
            folio,
            score: null,
            open_accounts: 0,
            delinquencies: 0,
            worst_past_due_delay_days: 0,
            recent_inquiries: 0,
          };
        case TEST_IDENTITIES.failing:
          if (subject.attempt <= FAILING_ATTEMPTS)
            throw new BureauError(`simulated bureau outage (attempt ${subject.attempt})`);
          return cleanReport(subject, folio);
        default:
          return cleanReport(subject, folio);
      }
    },
  };
}
