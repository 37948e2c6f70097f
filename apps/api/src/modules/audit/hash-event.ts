import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** What an event's hash covers: everything it records and the hash of the event before it. */
export interface HashedFields {
  applicationId: string;
  actor: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  prevHash: string | null;
}

export function hashEvent(event: HashedFields): string {
  const body = canonicalJson({
    application_id: event.applicationId,
    actor: event.actor,
    type: event.type,
    payload: event.payload,
    created_at: event.createdAt.toISOString(),
    prev_hash: event.prevHash,
  });
  return createHash('sha256').update(body).digest('hex');
}
