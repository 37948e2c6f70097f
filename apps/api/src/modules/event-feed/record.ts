import { APPLICATION_EVENT_VERSION } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { enqueueJob } from '../jobs/index.js';
import { endpointsToAnnounce, insertApplicationEvents, insertSends, lastSequence } from './event-feed.store.js';
import { publicEventsOf } from './projection.js';

/** The job that sends an application's pending events to one endpoint, in order. */
export const WEBHOOK_SEND_JOB = 'webhook-send';
export interface WebhookSendData {
  endpoint_id: string;
  application_id: string;
}

const APPLICATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The public events of an audit event, in the audit event's transaction and under its chain's lock
 * (so the sequence numbers of one application never collide): stored for the feed, a send for each
 * endpoint that wants them, and one job per enabled endpoint to send them. A change that rolls back
 * announces nothing; one that commits is announced even if the process dies right after.
 */
export async function recordPublicEvents(
  tx: Executor,
  audited: { applicationId: string; type: string; actor: string; payload: Record<string, unknown>; at: Date },
): Promise<void> {
  const events = publicEventsOf(audited);
  if (events.length === 0 || !APPLICATION_ID.test(audited.applicationId)) return;
  const { applicationId, at } = audited;
  let sequence = await lastSequence(tx, applicationId);
  const rows = await insertApplicationEvents(
    tx,
    events.map((event) => ({
      applicationId,
      sequence: ++sequence,
      type: event.type,
      version: APPLICATION_EVENT_VERSION,
      data: event.data,
      occurredAt: at,
    })),
  );
  for (const endpoint of await endpointsToAnnounce(tx)) {
    const wanted = rows.filter((row) => endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(row.type));
    if (wanted.length === 0) continue;
    await insertSends(
      tx,
      wanted.map((row) => ({
        eventId: row.id,
        endpointId: endpoint.id,
        applicationId,
        sequence: row.sequence,
        status: 'PENDING' as const,
        createdAt: at,
      })),
    );
    await enqueueJob<WebhookSendData>(tx, WEBHOOK_SEND_JOB, {
      endpoint_id: endpoint.id,
      application_id: applicationId,
    });
  }
}
