import type { WebhookEndpointView, WebhookSendView } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import {
  checkEndpointUrl,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  listSendsOfEndpoint,
  newEndpointSecret,
  pendingApplications,
  replaySends,
  updateEndpoint,
  WEBHOOK_SEND_JOB,
  type EndpointRow,
} from '../event-feed/index.js';
import { staffActor, staffChain, type StaffRow } from '../staff/index.js';

/**
 * Webhook endpoints as admins manage them (issue 30): each change in the admin's audit chain, the
 * secret answered once (created, rotated), a replay's sends enqueued in its transaction.
 */

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function endpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes,
    enabled: !row.disabledAt,
    disabled_at: iso(row.disabledAt),
    disabled_reason: row.disabledReason,
    failing_since: iso(row.failingSince),
    previous_secret_until: iso(row.previousSecretUntil),
    created_at: row.createdAt.toISOString(),
  };
}

const NOT_FOUND = () => new AppError(404, 'ENDPOINT_NOT_FOUND', 'endpoint not found', 'No encontramos ese destino.');

async function endpointOr404(app: FastifyInstance, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(app.db, id);
  if (!row) throw NOT_FOUND();
  return row;
}

async function audit(
  app: FastifyInstance,
  tx: Executor,
  member: StaffRow,
  type: string,
  payload: Record<string, unknown>,
) {
  await appendAuditEvent(tx, {
    applicationId: staffChain(member.id),
    actor: staffActor(member),
    type,
    payload,
    at: app.clock(),
  });
}

/** Sends to the endpoint for each application named, looked at now (in the caller's transaction). */
async function wakeSends(app: FastifyInstance, tx: Executor, endpointId: string, applicationIds: string[]) {
  for (const applicationId of new Set(applicationIds))
    await app.jobs.enqueue(tx, WEBHOOK_SEND_JOB, { endpoint_id: endpointId, application_id: applicationId });
}

export async function listEndpointViews(app: FastifyInstance): Promise<WebhookEndpointView[]> {
  return (await listEndpoints(app.db)).map(endpointView);
}

export async function createEndpoint(
  app: FastifyInstance,
  member: StaffRow,
  body: { url: string; description: string; event_types: string[] },
) {
  const url = await checkEndpointUrl(body.url, app.config);
  const secret = newEndpointSecret();
  const now = app.clock();
  const row = await app.db.transaction(async (tx) => {
    const created = await insertEndpoint(tx, {
      url,
      description: body.description,
      eventTypes: [...new Set(body.event_types)],
      secretEncrypted: app.cipher.encrypt(secret),
      createdBy: staffActor(member),
      createdAt: now,
      updatedAt: now,
    });
    await audit(app, tx, member, 'integrations.endpoint_created', {
      endpoint_id: created.id,
      url,
      event_types: created.eventTypes,
    });
    return created;
  });
  return { endpoint: endpointView(row), secret };
}

/** Description, event types, or enabled again (its failing clock reset, its pending sends woken) or disabled. */
export async function changeEndpoint(
  app: FastifyInstance,
  member: StaffRow,
  id: string,
  body: { description?: string | undefined; event_types?: string[] | undefined; enabled?: boolean | undefined },
) {
  const current = await endpointOr404(app, id);
  const now = app.clock();
  const row = await app.db.transaction(async (tx) => {
    const enabling = body.enabled === true && !!current.disabledAt;
    const disabling = body.enabled === false && !current.disabledAt;
    const updated = await updateEndpoint(tx, id, {
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.event_types !== undefined ? { eventTypes: [...new Set(body.event_types)] } : {}),
      ...(enabling ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
      ...(disabling ? { disabledAt: now, disabledReason: 'Desactivado por un administrador' } : {}),
      updatedAt: now,
    });
    if (enabling) await wakeSends(app, tx, id, await pendingApplications(tx, id));
    await audit(app, tx, member, 'integrations.endpoint_changed', {
      endpoint_id: id,
      ...(body.event_types !== undefined ? { event_types: updated!.eventTypes } : {}),
      ...(enabling ? { enabled: true } : {}),
      ...(disabling ? { enabled: false } : {}),
    });
    return updated!;
  });
  if (row.disabledAt === null) app.jobs.wake(WEBHOOK_SEND_JOB);
  return endpointView(row);
}

/** A new secret; the previous one keeps signing beside it for the overlap (receivers move at their pace). */
export async function rotateSecret(app: FastifyInstance, member: StaffRow, id: string, overlapHours: number) {
  const current = await endpointOr404(app, id);
  const secret = newEndpointSecret();
  const now = app.clock();
  const row = await app.db.transaction(async (tx) => {
    const updated = await updateEndpoint(tx, id, {
      secretEncrypted: app.cipher.encrypt(secret),
      previousSecretEncrypted: overlapHours > 0 ? current.secretEncrypted : null,
      previousSecretUntil: overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null,
      updatedAt: now,
    });
    await audit(app, tx, member, 'integrations.endpoint_secret_rotated', {
      endpoint_id: id,
      overlap_hours: overlapHours,
    });
    return updated!;
  });
  return { endpoint: endpointView(row), secret };
}

export async function endpointSends(app: FastifyInstance, id: string): Promise<WebhookSendView[]> {
  await endpointOr404(app, id);
  const rows = await listSendsOfEndpoint(app.db, id, 100);
  return rows.map((row) => ({
    id: row.id,
    event_id: `evt_${row.eventId}`,
    type: row.type,
    application_id: row.applicationId,
    sequence: row.sequence,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_attempt_at: iso(row.lastAttemptAt),
    next_attempt_at: row.status === 'PENDING' ? iso(row.nextAttemptAt) : null,
    delivered_at: iso(row.deliveredAt),
    created_at: row.createdAt.toISOString(),
  }));
}

/** One send again, or every failed one since a time: due now, sent in order with the rest. */
export async function replay(
  app: FastifyInstance,
  member: StaffRow,
  id: string,
  which: { send_id: string } | { failed_since: string },
) {
  await endpointOr404(app, id);
  const replayed = await app.db.transaction(async (tx) => {
    const rows = await replaySends(
      tx,
      id,
      'send_id' in which ? { sendId: which.send_id } : { failedSince: new Date(which.failed_since) },
    );
    if ('send_id' in which && rows.length === 0)
      throw new AppError(404, 'SEND_NOT_FOUND', 'send not found', 'No encontramos esa entrega en este destino.');
    await wakeSends(
      app,
      tx,
      id,
      rows.map((row) => row.applicationId),
    );
    await audit(app, tx, member, 'integrations.sends_replayed', { endpoint_id: id, ...which, count: rows.length });
    return rows.length;
  });
  app.jobs.wake(WEBHOOK_SEND_JOB);
  return replayed;
}
