import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../policies/index.js';
import { storedInputs, Tally } from './replay.js';

const live = loadPolicy(undefined);
const stricter = { ...live, eligibility: { ...live.eligibility, min_business_age_years: 2 } };
const inputs = {
  age: 40,
  city: 'Santo Domingo de Guzmán',
  city_allowed: true,
  business_age_years: 1,
  sales_range: 3,
  score: 700,
  delinquencies: 0,
  worst_past_due_delay_days: null,
  open_accounts: 2,
  recent_inquiries: 1,
  thin_file: false,
};
const decision = (id: string, stored: Record<string, unknown>, result = 'APPROVED') => ({
  id,
  userId: `user-${id}`,
  policyVersion: live.version,
  inputs: stored,
  result,
  amount: 10_000,
  createdAt: new Date('2026-11-21T15:00:00Z'),
});

describe('the replay of stored decisions', () => {
  it('leaves out, and counts apart, decisions whose inputs cannot be replayed', () => {
    const { worst_past_due_delay_days: _older, ...beforeTheDelay } = inputs;
    expect(storedInputs(inputs)).toEqual(inputs);
    expect(storedInputs({})).toBeNull(); // erased by the retention schedule
    expect(storedInputs(beforeTheDelay)).toBeNull(); // written before the worst delay was an input
    expect(storedInputs({ ...inputs, age: '40' })).toBeNull();

    const tally = new Tally(live, stricter);
    tally.add(decision('a', inputs));
    tally.add(decision('b', {}));
    tally.add(decision('c', beforeTheDelay));
    const result = tally.result(0);
    expect(result).toMatchObject({
      as_decided: { decisions: 1, approved: 1 },
      live: { decisions: 1, approved: 1 },
      tested: { decisions: 1, approved: 0 },
      approved_to_rejected: 1,
      skipped: 2,
      reasons: [{ rule: 'min_business_age_years', live: 0, tested: 1 }],
    });
  });

  it("lists a flip's refusing rules from whichever version refuses it", () => {
    const tally = new Tally(stricter, live);
    tally.add(decision('a', inputs, 'REJECTED'));
    expect(tally.result(0)).toMatchObject({
      rejected_to_approved: 1,
      flips: [{ live: 'REJECTED', tested: 'APPROVED', reasons: ['min_business_age_years'] }],
    });
  });
});
