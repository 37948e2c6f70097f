import { WEBHOOK_DISABLE_AFTER_DAYS } from '@provee/domain';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Db, Executor } from '../../db/client.js';
import type { FieldCipher } from '../../crypto.js';
import { enqueueJob } from '../jobs/index.js';
import {
  disableFailingEndpoint,
  findApplicationEvent,
  findEndpoint,
  holdNextSend,
  pendingHead,
  markEndpointFailing,
  recordAttempt,
  updateEndpoint,
  type EndpointRow,
  type SendRow,
} from './event-feed.store.js';
import { eventMessage } from './message.js';
import { postWebhook, type PostOutcome } from './post.js';
import { WEBHOOK_SEND_JOB, type WebhookSendData } from './record.js';
import { webhookDeliveries } from '../../observability/metrics.js';

export interface DeliveryDeps {
  db: Db;
  clock: () => Date;
  cipher: FieldCipher;
  config: { WEBHOOK_RETRY_SECONDS: number[]; WEBHOOK_ALLOWED_NETWORKS: string[]; WEBHOOK_TIMEOUT_MS: number };
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** An endpoint was just disabled for failing for days: tell the admins (in its transaction). */
  endpointDisabled: (tx: Executor, endpoint: EndpointRow, reason: string, at: Date) => Promise<void>;
}

const DAY_MS = 86_400_000;

/** The secrets that sign now: the current one and, during a rotation's overlap, the previous one. */
function signingSecrets(deps: DeliveryDeps, endpoint: EndpointRow, now: Date): string[] {
  const secrets = [deps.cipher.decrypt(endpoint.secretEncrypted)];
  if (endpoint.previousSecretEncrypted && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now)
    secrets.push(deps.cipher.decrypt(endpoint.previousSecretEncrypted));
  return secrets;
}

/** Standard Webhooks' three headers, signed with the spec's reference library (one signature per secret). */
export function signedHeaders(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

async function post(deps: DeliveryDeps, endpoint: EndpointRow, send: SendRow): Promise<PostOutcome> {
  const event = await findApplicationEvent(deps.db, send.eventId);
  if (!event) return { ok: false, statusCode: null, error: 'evento no encontrado' };
  const message = eventMessage(event);
  const body = JSON.stringify(message);
  const now = deps.clock();
  const headers = signedHeaders(signingSecrets(deps, endpoint, now), message.id, now, body);
  return postWebhook(endpoint.url, body, headers, {
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowedNetworks: deps.config.WEBHOOK_ALLOWED_NETWORKS,
  });
}

type HeldSend = SendRow & { leaseId: string };

/** A send whose next try is not due yet, fetched a moment early: the queue tries the job again. */
class NotYetDue extends Error {
  override name = 'NotYetDue';
}

/**
 * A failed try: due again after the schedule's next pause (with a job held back until then), or
 * failed for good after the last; the endpoint fails since its first failure, and five days of
 * failing disable it. Nothing changes when the try's lease is no longer the send's (another try
 * or a replay took it). Answers whether the next send may go now (this one failed for good).
 */
async function recordFailure(deps: DeliveryDeps, endpoint: EndpointRow, send: HeldSend, outcome: PostOutcome) {
  const at = deps.clock();
  const pause = deps.config.WEBHOOK_RETRY_SECONDS[send.attempts];
  const failedForGood = pause === undefined;
  const result = await deps.db.transaction(async (tx) => {
    const recorded = await recordAttempt(tx, send, {
      status: failedForGood ? 'FAILED' : 'PENDING',
      at,
      statusCode: outcome.statusCode,
      error: outcome.error,
      ...(failedForGood ? {} : { retryInSeconds: pause }),
    });
    if (!recorded) return { recorded, disabled: false };
    if (!failedForGood)
      await enqueueJob<WebhookSendData>(
        tx,
        WEBHOOK_SEND_JOB,
        { endpoint_id: endpoint.id, application_id: send.applicationId },
        { startAfterSeconds: pause },
      );
    await markEndpointFailing(tx, endpoint.id, at);
    const limit = new Date(at.getTime() - WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS);
    const reason = `Sin respuesta correcta durante ${WEBHOOK_DISABLE_AFTER_DAYS} días`;
    const disabled = await disableFailingEndpoint(tx, endpoint.id, limit, at, reason);
    if (disabled) await deps.endpointDisabled(tx, endpoint, reason, at);
    return { recorded, disabled };
  });
  if (result.recorded) webhookDeliveries.inc({ outcome: failedForGood ? 'gave_up' : 'failed' });
  if (result.disabled) deps.log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after failing for days');
  return result.recorded && failedForGood && !result.disabled;
}

/** A delivered try, while its lease is still the send's; the endpoint answers again. Whether it was recorded. */
async function recordDelivery(deps: DeliveryDeps, endpoint: EndpointRow, send: HeldSend, outcome: PostOutcome) {
  const at = deps.clock();
  const recorded = await deps.db.transaction(async (tx) => {
    const done = await recordAttempt(tx, send, {
      status: 'DELIVERED',
      at,
      statusCode: outcome.statusCode,
      error: null,
    });
    if (done && endpoint.failingSince) await updateEndpoint(tx, endpoint.id, { failingSince: null });
    return done;
  });
  if (recorded) webhookDeliveries.inc({ outcome: 'delivered' });
  return recorded;
}

/**
 * Sends an application's pending events to one endpoint, in sequence order, while they are due:
 * each delivered one lets the next go; a failure waits for its retry (the events after it wait
 * with it); a send failed for good lets the next go. A head held by another try is left to it; one
 * not due yet (this job came a moment early, the clocks differ) is tried again by the queue.
 */
export async function sendPending(deps: DeliveryDeps, data: WebhookSendData): Promise<void> {
  const leaseSeconds = Math.ceil(deps.config.WEBHOOK_TIMEOUT_MS / 1000) + 30;
  for (;;) {
    const endpoint = await findEndpoint(deps.db, data.endpoint_id);
    if (!endpoint || endpoint.disabledAt) return;
    const send = await holdNextSend(deps.db, endpoint.id, data.application_id, leaseSeconds);
    if (!send) {
      const head = await pendingHead(deps.db, endpoint.id, data.application_id);
      if (head && !head.leased && !head.due) throw new NotYetDue('the next send is not due yet');
      return;
    }
    const outcome = await post(deps, endpoint, send);
    if (outcome.ok) {
      if (!(await recordDelivery(deps, endpoint, send, outcome))) return;
      continue;
    }
    if (!(await recordFailure(deps, endpoint, send, outcome))) return;
  }
}
