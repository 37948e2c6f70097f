/**
 * What the lender's systems hear about an application (issue 30), by webhook and from the partner
 * API's events feed alike: each type's data is in the contract (`contract/events.ts`) and the
 * OpenAPI document. Ids and states only: never a tax id, a birth date, a phone or an image.
 */
export const APPLICATION_EVENT_TYPES = [
  'application.created',
  'application.step_changed',
  'consent.given',
  'bureau.answered',
  'decision.made',
  'guarantor.named',
  'guarantor.consented',
  'guarantor.decided',
  'identity.verified',
  'identity.rejected',
  'identity.under_review',
  'contract.signed',
  'contract.sealed',
  'contract.timestamped',
  'contract.nom151_issued',
  'lender_decision.recorded',
  'application.erased',
] as const;
export type ApplicationEventType = (typeof APPLICATION_EVENT_TYPES)[number];

/** The version of every type's data; a change a receiver could trip on raises it. */
export const APPLICATION_EVENT_VERSION = 1;

/**
 * Pauses before each new try of a webhook send (Standard Webhooks' suggested schedule, about three
 * days in all): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; failed for good after the last.
 */
export const WEBHOOK_RETRY_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;

/** An endpoint whose every send failed for this long is disabled (admins are told). */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
