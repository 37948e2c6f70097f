import { describe, expect, it } from 'vitest';
import {
  AVAL_INITIAL_STATUS,
  AVAL_STATUSES,
  AVAL_TRANSITIONS,
  BUREAU_QUERY_INITIAL_STATUS,
  BUREAU_QUERY_STATUSES,
  BUREAU_QUERY_TRANSITIONS,
  avalStatusAllows,
  bureauQueryAllows,
  type StatusTransition,
} from './status-transitions.js';

/** Every status the table reaches from `initial`. */
function reachable<S extends string>(initial: S, table: Record<string, StatusTransition<S>>): S[] {
  const seen: S[] = [initial];
  for (let i = 0; i < seen.length; i++)
    for (const transition of Object.values(table))
      if (transition.from.includes(seen[i]!)) for (const to of transition.to) if (!seen.includes(to)) seen.push(to);
  return seen;
}

/** The statuses no transition leaves. */
const finalOf = <S extends string>(statuses: readonly S[], table: Record<string, StatusTransition<S>>) =>
  statuses.filter((status) => !Object.values(table).some((transition) => transition.from.includes(status)));

describe('a guarantor’s status', () => {
  it('names only statuses the database allows, and every one is reachable from a new guarantor', () => {
    for (const transition of Object.values(AVAL_TRANSITIONS))
      for (const status of [...transition.from, ...transition.to]) expect(AVAL_STATUSES).toContain(status);
    expect(reachable(AVAL_INITIAL_STATUS, AVAL_TRANSITIONS).sort()).toEqual([...AVAL_STATUSES].sort());
  });

  it('consents once, from PENDING; the policy decides only a consented guarantor', () => {
    expect(avalStatusAllows('consented', 'PENDING', 'CONSENTED')).toBe(true);
    expect(avalStatusAllows('consented', 'CONSENTED', 'CONSENTED')).toBe(false);
    expect(avalStatusAllows('consented', 'REFUSED', 'CONSENTED')).toBe(false);
    expect(avalStatusAllows('decided', 'CONSENTED', 'APPROVED')).toBe(true);
    expect(avalStatusAllows('decided', 'CONSENTED', 'REFUSED')).toBe(true);
    expect(avalStatusAllows('decided', 'PENDING', 'APPROVED')).toBe(false);
    expect(avalStatusAllows('decided', 'APPROVED', 'REFUSED')).toBe(false);
    expect(avalStatusAllows('decided', 'CONSENTED', 'PENDING')).toBe(false);
  });

  it('a replaced guarantor stays replaced: it is kept only for the record', () => {
    for (const status of AVAL_STATUSES.filter((status) => status !== 'REPLACED'))
      expect(avalStatusAllows('replaced', status, 'REPLACED')).toBe(true);
    expect(finalOf(AVAL_STATUSES, AVAL_TRANSITIONS)).toEqual(['REPLACED']);
  });
});

describe('a bureau query’s status', () => {
  it('names only its four statuses, and every one is reachable from a new query', () => {
    for (const transition of Object.values(BUREAU_QUERY_TRANSITIONS))
      for (const status of [...transition.from, ...transition.to]) expect(BUREAU_QUERY_STATUSES).toContain(status);
    expect(reachable(BUREAU_QUERY_INITIAL_STATUS, BUREAU_QUERY_TRANSITIONS).sort()).toEqual(
      [...BUREAU_QUERY_STATUSES].sort(),
    );
  });

  it('an attempt runs from a waiting query or one whose runner died, and only a running one ends', () => {
    expect(bureauQueryAllows('claimed', 'PENDING', 'RUNNING')).toBe(true);
    expect(bureauQueryAllows('claimed', 'RUNNING', 'RUNNING')).toBe(true);
    expect(bureauQueryAllows('claimed', 'DONE', 'RUNNING')).toBe(false);
    expect(bureauQueryAllows('claimed', 'FAILED', 'RUNNING')).toBe(false);
    expect(bureauQueryAllows('answered', 'RUNNING', 'DONE')).toBe(true);
    expect(bureauQueryAllows('answered', 'PENDING', 'DONE')).toBe(false);
    expect(bureauQueryAllows('failed', 'RUNNING', 'PENDING')).toBe(true);
    expect(bureauQueryAllows('failed', 'RUNNING', 'FAILED')).toBe(true);
    expect(bureauQueryAllows('failed', 'PENDING', 'FAILED')).toBe(false);
  });

  it('an answered query is final; one given up moves again only when staff ask for a retry', () => {
    expect(finalOf(BUREAU_QUERY_STATUSES, BUREAU_QUERY_TRANSITIONS)).toEqual(['DONE']);
    const leavingFailed = Object.entries(BUREAU_QUERY_TRANSITIONS).filter(([, transition]) =>
      (transition.from as readonly string[]).includes('FAILED'),
    );
    expect(leavingFailed.map(([name, transition]) => [name, transition.actor, transition.to])).toEqual([
      ['retried', 'staff', ['PENDING']],
    ]);
  });
});
