import type { StaffLoginStage } from '@provee/domain';

export const LOGIN = '/backoffice/login';

/** Only back office addresses: a crafted ?next= must not send staff to another site. */
export function safeNext(next: string | null): string {
  if (!next || !/^\/backoffice(?:[/?#]|$)/.test(next) || next.startsWith(LOGIN)) return '/backoffice';
  return next;
}

/**
 * Where a login goes on from its stage: the second factor, its enrolment, or (active) the page
 * asked for. `next` travels along in the query.
 */
export function stagePath(stage: StaffLoginStage, next: string | null): string {
  const query = next ? `?next=${encodeURIComponent(next)}` : '';
  if (stage === 'factor') return `${LOGIN}/factor${query}`;
  if (stage === 'enrol') return `${LOGIN}/enrol${query}`;
  return safeNext(next);
}

export const loginPath = (here: { pathname: string; search: string }) =>
  `${LOGIN}?next=${encodeURIComponent(here.pathname + here.search)}`;
