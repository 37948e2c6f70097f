import type { ApplicationEventRow } from './event-feed.store.js';

/**
 * One event as the lender's systems read it, by webhook (its body) and from the events feed alike:
 * Standard Webhooks' `type`, `timestamp` and `data`, with the application's id and sequence.
 */
export function eventMessage(row: ApplicationEventRow) {
  return {
    id: `evt_${row.id}`,
    type: row.type,
    version: row.version,
    timestamp: row.occurredAt.toISOString(),
    application_id: row.applicationId,
    sequence: row.sequence,
    data: row.data,
  };
}
export type EventMessage = ReturnType<typeof eventMessage>;
