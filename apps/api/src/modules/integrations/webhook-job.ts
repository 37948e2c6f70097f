import type { FastifyInstance } from 'fastify';
import { appendAuditEvent } from '../audit/index.js';
import { sendPending, stalledSends, WEBHOOK_SEND_JOB, type WebhookSendData } from '../event-feed/index.js';
import { enqueueJob, type JobKind } from '../jobs/index.js';

/** The audit chain of one webhook endpoint: what the system did to it (disabled it). */
export const endpointChain = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/**
 * The job that sends an application's pending events to one endpoint, in order (event-feed's
 * delivery). An endpoint it disables for failing for days is in the trail, and every admin's back
 * office shows it (GET /webhook-endpoints: disabled, with the reason) until one enables it again.
 */
export function webhookSendJob(app: FastifyInstance): JobKind<WebhookSendData> {
  const deps = {
    db: app.db,
    clock: app.clock,
    cipher: app.cipher,
    config: app.config,
    log: app.log,
    endpointDisabled: async (
      tx: Parameters<typeof appendAuditEvent>[0],
      endpoint: { id: string; url: string; failingSince: Date | null },
      reason: string,
      at: Date,
    ) =>
      appendAuditEvent(tx, {
        applicationId: endpointChain(endpoint.id),
        actor: 'system',
        type: 'integrations.endpoint_disabled',
        payload: {
          endpoint_id: endpoint.id,
          url: endpoint.url,
          failing_since: endpoint.failingSince?.toISOString() ?? null,
          reason,
        },
        at,
      }).then(() => undefined),
  };
  return {
    name: WEBHOOK_SEND_JOB,
    // The receiver's failures follow the send's own schedule; these are for this side's (the database).
    retryLimit: 5,
    expireInSeconds: 15 * 60,
    run: (data) => sendPending(deps, data),
  };
}

/**
 * The webhooks' safety net, on the queue's schedule: an application whose next send has been due for
 * two minutes with nobody sending it (its job's own tries ran out while the database was away) gets
 * a job again.
 */
export function webhookSweepJob(app: FastifyInstance): JobKind<object> {
  return {
    name: 'webhook-sends-sweep',
    cron: '*/10 * * * *',
    retryLimit: 2,
    expireInSeconds: 120,
    async run() {
      const stalled = await stalledSends(app.db, 120);
      if (stalled.length === 0) return;
      await app.db.transaction(async (tx) => {
        for (const pair of stalled)
          await enqueueJob<WebhookSendData>(tx, WEBHOOK_SEND_JOB, {
            endpoint_id: pair.endpointId,
            application_id: pair.applicationId,
          });
      });
      app.jobs.wake(WEBHOOK_SEND_JOB);
    },
  };
}
