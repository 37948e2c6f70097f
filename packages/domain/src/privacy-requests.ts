import type { CountryCode } from './country.js';

/**
 * The rights a person may exercise over their data (issue 31): Mexico calls them "derechos ARCO"
 * (LFPDPPP arts. 22–35); the Dominican Ley 172-13 gives the same four (arts. 8–11).
 */
export const PRIVACY_REQUEST_KINDS = ['access', 'rectification', 'cancellation', 'opposition'] as const;
export type PrivacyRequestKind = (typeof PRIVACY_REQUEST_KINDS)[number];

/** RECEIVED → IN_PROGRESS → DONE or REFUSED (a refusal always carries its legal reason). */
export const PRIVACY_REQUEST_STATES = ['RECEIVED', 'IN_PROGRESS', 'DONE', 'REFUSED'] as const;
export type PrivacyRequestState = (typeof PRIVACY_REQUEST_STATES)[number];
/** A request still waiting for an answer: only one of these per person and kind. */
export const OPEN_PRIVACY_REQUEST_STATES = [
  'RECEIVED',
  'IN_PROGRESS',
] as const satisfies readonly PrivacyRequestState[];

/** Fields a person may ask to correct, and staff may rectify (each through the service that owns it). */
export const RECTIFIABLE_FIELDS = ['name', 'lastname', 'maternal_lastname', 'business_name'] as const;
export type RectifiableField = (typeof RECTIFIABLE_FIELDS)[number];

/**
 * The legal term to answer, in business days, per country. Mexico: LFPDPPP art. 32, twenty days
 * from the request. Dominican Republic: Ley 172-13 art. 8 (access), ten business days. Both are
 * defaults: an operator whose counsel reads them differently sets PRIVACY_DEADLINE_BUSINESS_DAYS.
 */
export const PRIVACY_DEADLINE_BUSINESS_DAYS: Record<CountryCode, number> = { mx: 20, do: 10 };

/** 'YYYY-MM-DD' of a calendar day. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The day `businessDays` working days after `from` (a calendar day, 'YYYY-MM-DD'): Saturdays,
 * Sundays and the given holidays do not count, and the day of the request itself does not either.
 */
export function addBusinessDays(from: string, businessDays: number, holidays: readonly string[] = []): string {
  const skip = new Set(holidays);
  const day = new Date(`${from}T00:00:00Z`);
  let left = businessDays;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !skip.has(isoDay(day))) left -= 1;
  }
  return isoDay(day);
}
