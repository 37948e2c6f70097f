// Signed webhooks out (issue 30): a lender's receiver over real HTTP verifies every delivery with the
// Standard Webhooks reference library; deliveries arrive in sequence order per application, wait
// out a receiver that is down, are never sent for a change that rolled back, and admins see each
// endpoint's deliveries, replay them and rotate its secret. Both databases.
import { createServer } from 'node:http';
import { APPLICATION_EVENT_TYPES, applicationEventMessage, toE164 } from '@provee/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationEvents, auditEvents, webhookEndpoints, webhookSends } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { adminSession, createWebhookEndpoint } from '../../test/lender.js';
import { consentWithOfferedPin } from '../../test/signer.js';
import { createTestApp, manualClock, useTestApp, type TestApp } from '../../test/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { runQueuedJobs } from '../../test/jobs.js';
import { appendAuditEvent } from '../audit/index.js';
import { eraseApplication } from '../privacy/index.js';
import { holdNextSend, recordAttempt } from './event-feed.store.js';
import { WEBHOOK_SEND_JOB } from './record.js';

const ENV = {
  NIP_PREFILL: 'true',
  BUREAU_SYNC_WAIT_MS: '3000',
  JOB_POLL_INTERVAL_MS: '200',
  WEBHOOK_RETRY_SECONDS: '1,1,1,1,1,1,1',
  RATE_LIMIT_PER_MINUTE: '100000',
};

/** The events the product recorded for an application, oldest first (what must arrive). */
async function recorded(t: TestApp, applicationId: string) {
  return t.app.db
    .select()
    .from(applicationEvents)
    .where(eq(applicationEvents.applicationId, applicationId))
    .orderBy(applicationEvents.sequence);
}

/** A shopkeeper's PIN consent: the consent, the bureau's answer, the decision and three step changes. */
async function applicantWithDecision(t: TestApp) {
  const user = await createApplication(t.app);
  const consent = await consentWithOfferedPin(t.app, user);
  expect(consent.json().data?.next_step, consent.body).toBe('PASSWORD');
  return user;
}

/** Waits until the receiver holds every recorded event of the application, and answers them. */
async function allArrive(t: TestApp, receiver: WebhookReceiver, applicationId: string, timeout = 20_000) {
  const events = await recorded(t, applicationId);
  expect(events.length).toBeGreaterThan(0);
  await vi.waitFor(() => expect(receiver.of(applicationId)).toHaveLength(events.length), { timeout, interval: 100 });
  return { events, deliveries: receiver.of(applicationId) };
}

describe('webhooks to a receiver that verifies them', () => {
  const t = useTestApp(ENV);
  let receiver: WebhookReceiver;
  let admin: { cookie: string };
  let endpointId: string;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    admin = await adminSession(t.app);
    const endpoint = await createWebhookEndpoint(t.app, receiver.url, { headers: admin });
    receiver.secrets.push(endpoint.secret);
    endpointId = endpoint.id;
  });
  afterAll(() => receiver.close());

  it('every delivery verifies, in sequence order per application, with ids and states only', async () => {
    const [one, two] = await Promise.all([applicantWithDecision(t), applicantWithDecision(t)]);
    for (const user of [one!, two!]) {
      const { events, deliveries } = await allArrive(t, receiver, user.id);
      expect(deliveries.map((delivery) => delivery.event.sequence)).toEqual(events.map((event) => event.sequence));
      expect(deliveries.map((delivery) => delivery.event.type)).toEqual(events.map((event) => event.type));
      for (const delivery of deliveries) {
        expect(delivery.id).toBe(delivery.event.id);
        // The documented schema of its type (the OpenAPI document's), nothing more.
        expect(applicationEventMessage.parse(delivery.event)).toEqual(delivery.event);
        const text = JSON.stringify(delivery.event);
        expect(text).not.toContain(user.phone);
        expect(text).not.toContain(toE164(t.app.config.COUNTRY, user.phone).slice(1));
      }
      expect(deliveries.map((delivery) => delivery.event.type)).toEqual(
        expect.arrayContaining(['consent.given', 'bureau.answered', 'decision.made', 'application.step_changed']),
      );
      const decided = deliveries.find((delivery) => delivery.event.type === 'decision.made')!;
      expect(decided.event.data).toMatchObject({ result: 'APPROVED', reasons: [] });
    }
    expect(receiver.unverified).toEqual([]);
  });

  it('an erasure is announced last, as application.erased, so the receiver erases its copy', async () => {
    const user = await applicantWithDecision(t);
    await allArrive(t, receiver, user.id);
    await t.app.db.transaction((tx) => eraseApplication(t.app, tx, user.id, 'staff:test'));
    const { deliveries } = await allArrive(t, receiver, user.id);
    const last = deliveries.at(-1)!.event;
    expect(last).toMatchObject({ type: 'application.erased', data: { aval_ids: [], legal_term_passed: false } });
    expect(applicationEventMessage.parse(last)).toEqual(last);
  });

  it('a receiver down for a while gets every delivery once back, still in order; the log shows the tries', async () => {
    receiver.down(503);
    const user = await applicantWithDecision(t);
    // Waits for this application's own sends to have been refused (the receiver may also be hearing
    // an earlier test's retries meanwhile, so a count of its requests would not say whose they are).
    const triedSends = async () => {
      const log = await t.app.inject({
        method: 'GET',
        url: `/api/backoffice/webhook-endpoints/${endpointId}/sends`,
        headers: admin,
      });
      return (log.json().data as { application_id: string; status: string; last_status_code: number | null }[]).filter(
        (send) => send.application_id === user.id,
      );
    };
    const mine = await vi.waitFor(
      async () => {
        const sends = await triedSends();
        expect(sends.some((send) => send.last_status_code === 503)).toBe(true);
        return sends;
      },
      { timeout: 15_000 },
    );
    expect(mine.every((send) => send.status === 'PENDING')).toBe(true);
    expect(receiver.of(user.id)).toEqual([]);

    receiver.up();
    const { events, deliveries } = await allArrive(t, receiver, user.id);
    expect(deliveries.map((delivery) => delivery.event.sequence)).toEqual(events.map((event) => event.sequence));
    // The receiver holds the last delivery a moment before its sender records the answer: wait for that.
    await vi.waitFor(
      async () => {
        const sends = await t.app.db.select().from(webhookSends).where(eq(webhookSends.applicationId, user.id));
        expect(sends.map((send) => [send.status, Boolean(send.deliveredAt)])).toEqual(
          sends.map(() => ['DELIVERED', true]),
        );
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('a change that rolls back announces nothing', async () => {
    const user = await createApplication(t.app);
    await expect(
      t.app.db.transaction(async (tx) => {
        await appendAuditEvent(tx, {
          applicationId: user.id,
          actor: 'system',
          type: 'guarantor.named',
          payload: { aval_id: user.id, aval_type: 'PARTNER' },
          at: t.app.clock(),
        });
        const inside = await tx.select().from(applicationEvents).where(eq(applicationEvents.applicationId, user.id));
        expect(inside).toHaveLength(1);
        throw new Error('the change fails after its event');
      }),
    ).rejects.toThrow('the change fails');
    expect(await recorded(t, user.id)).toEqual([]);
    expect(await t.app.db.select().from(webhookSends).where(eq(webhookSends.applicationId, user.id))).toEqual([]);
    // A later change of the same application is announced, numbered from 1.
    await appendAuditEvent(t.app.db, {
      applicationId: user.id,
      actor: 'system',
      type: 'guarantor.named',
      payload: { aval_id: user.id, aval_type: 'PARTNER' },
      at: t.app.clock(),
    });
    const { deliveries } = await allArrive(t, receiver, user.id);
    expect(deliveries.map((delivery) => delivery.event.sequence)).toEqual([1]);
  });

  it('after its last try a send is failed; a replay of the failed ones since a time delivers them', async () => {
    // Another receiver, for decisions only, down for longer than every try of its sends.
    const other = await startWebhookReceiver();
    try {
      const endpoint = await createWebhookEndpoint(t.app, other.url, { headers: admin, eventTypes: ['decision.made'] });
      other.secrets.push(endpoint.secret);
      other.down(500);
      const user = await applicantWithDecision(t);
      await vi.waitFor(
        async () => {
          const [send] = await t.app.db.select().from(webhookSends).where(eq(webhookSends.endpointId, endpoint.id));
          expect(send).toMatchObject({ status: 'FAILED', attempts: 8, lastStatusCode: 500 });
        },
        { timeout: 30_000, interval: 250 },
      );
      other.up();
      const replayed = await t.app.inject({
        method: 'POST',
        url: `/api/backoffice/webhook-endpoints/${endpoint.id}/replay`,
        headers: admin,
        payload: { failed_since: new Date(Date.now() - 3_600_000).toISOString() },
      });
      expect(replayed.statusCode, replayed.body).toBe(200);
      expect(replayed.json().data.replayed).toBe(1);
      await vi.waitFor(
        () => expect(other.of(user.id).map((delivery) => delivery.event.type)).toEqual(['decision.made']),
        {
          timeout: 10_000,
        },
      );
      // The receiver has it before the sender records its answer: wait for that record too.
      await vi.waitFor(async () => {
        const [send] = await t.app.db.select().from(webhookSends).where(eq(webhookSends.endpointId, endpoint.id));
        expect(send).toMatchObject({ status: 'DELIVERED', attempts: 1, lastStatusCode: 204 });
      });
      const off = await t.app.inject({
        method: 'PATCH',
        url: `/api/backoffice/webhook-endpoints/${endpoint.id}`,
        headers: admin,
        payload: { enabled: false },
      });
      expect(off.json().data).toMatchObject({ enabled: false, disabled_reason: 'Desactivado por un administrador' });
    } finally {
      await other.close();
    }
  });

  it('a rotated secret: both sign during the overlap, then the new one alone', async () => {
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/webhook-endpoints/${endpointId}/secret`,
      headers: admin,
      payload: { overlap_hours: 24 },
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(receiver.secrets[0]);
    receiver.secrets.push(fresh);
    const user = await applicantWithDecision(t);
    const { deliveries } = await allArrive(t, receiver, user.id);
    expect(deliveries.every((delivery) => delivery.verifiedWith.join() === '0,1')).toBe(true);
    expect(String(deliveries[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);

    const alone = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/webhook-endpoints/${endpointId}/secret`,
      headers: admin,
      payload: { overlap_hours: 0 },
    });
    receiver.secrets.push(alone.json().data.secret as string);
    const next = await applicantWithDecision(t);
    const later = await allArrive(t, receiver, next.id);
    expect(later.deliveries.every((delivery) => delivery.verifiedWith.join() === '2')).toBe(true);
  });

  it('admins only: an analyst cannot list, add or replay endpoints', async () => {
    const { staffSession } = await import('../../test/staff.js');
    const analyst = await staffSession(t.app, 'analyst');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/webhook-endpoints',
      headers: analyst.headers,
    });
    expect(list.statusCode).toBe(403);
    const admins = await t.app.inject({ method: 'GET', url: '/api/backoffice/webhook-endpoints', headers: admin });
    expect(admins.json().data.event_types).toEqual([...APPLICATION_EVENT_TYPES]);
    expect(JSON.stringify(admins.json())).not.toContain('whsec_');
  });
});

describe('two processes sending the same endpoint’s events', () => {
  const t = useTestApp(ENV);

  it('every event arrives once, in sequence order per application, whichever process sends it', async () => {
    const receiver = await startWebhookReceiver();
    const other = await createTestApp(ENV, undefined, { database: t.database });
    try {
      const endpoint = await createWebhookEndpoint(t.app, receiver.url);
      receiver.secrets.push(endpoint.secret);
      // Changes made through both processes at once, each of them sending.
      const users = await Promise.all([
        applicantWithDecision(t),
        applicantWithDecision(other),
        applicantWithDecision(t),
        applicantWithDecision(other),
      ]);
      for (const user of users) {
        const { events, deliveries } = await allArrive(t, receiver, user.id);
        expect(deliveries.map((delivery) => delivery.event.sequence)).toEqual(events.map((event) => event.sequence));
      }
      const ids = receiver.deliveries.map((delivery) => delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await other.close();
      await receiver.close();
    }
  });
});

describe('webhook endpoints: addresses', () => {
  // This process runs no jobs: the sends of the second test go out from a stricter one.
  const t = useTestApp({ JOB_POLL_INTERVAL_MS: '0' });

  it('refuses private, loopback and link-local addresses outside the allowed networks, and bad URLs, in Spanish', async () => {
    const admin = await adminSession(t.app);
    const refused = async (url: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/backoffice/webhook-endpoints',
        headers: admin,
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
      return res.json().issues?.[0]?.message as string;
    };
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[fd00::1]/x',
      'http://192.168.1.10',
    ])
      expect(await refused(url), url).toBe('* La dirección apunta a una red privada o local: no se permite.');
    expect(await refused('ftp://example.com/x')).toBe('* La dirección debe empezar con https://.');
    expect(await refused('https://user:pass@example.com/x')).toBe(
      '* La dirección no debe llevar usuario ni contraseña.',
    );
    expect(await refused('no es una dirección')).toMatch(/^\* Escribe una dirección completa/);
  });

  it('a send goes only where the allowed networks say, checked again as it connects', async () => {
    const receiver = await startWebhookReceiver();
    // Made where this machine is allowed (the test mode's default), sent by a process where it is not.
    const endpoint = await createWebhookEndpoint(t.app, receiver.url);
    const strict = await createTestApp(
      { JOB_POLL_INTERVAL_MS: '200', WEBHOOK_RETRY_SECONDS: '1', WEBHOOK_ALLOWED_NETWORKS: '10.99.0.0/16' },
      undefined,
      { database: t.database },
    );
    try {
      const user = await createApplication(t.app);
      await appendAuditEvent(t.app.db, {
        applicationId: user.id,
        actor: 'system',
        type: 'guarantor.named',
        payload: { aval_id: user.id, aval_type: 'PARTNER' },
        at: t.app.clock(),
      });
      await vi.waitFor(
        async () => {
          const [send] = await strict.app.db
            .select()
            .from(webhookSends)
            .where(eq(webhookSends.endpointId, endpoint.id));
          expect(send?.lastError).toBe('dirección privada no permitida');
        },
        { timeout: 10_000 },
      );
      expect(receiver.requests()).toBe(0);
    } finally {
      await strict.close();
      await receiver.close();
    }
  });
});

describe('an endpoint failing for five days', () => {
  const clock = manualClock(new Date());
  const t = useTestApp({ JOB_POLL_INTERVAL_MS: '200', WEBHOOK_RETRY_SECONDS: '1,1,1,1,1,1,1' }, undefined, { clock });

  it('is disabled, the admins are told, and enabling it sends what waited', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const admin = await adminSession(t.app);
      const endpoint = await createWebhookEndpoint(t.app, receiver.url, { headers: admin });
      receiver.secrets.push(endpoint.secret);
      receiver.down(502);
      const user = await createApplication(t.app);
      const named = () =>
        appendAuditEvent(t.app.db, {
          applicationId: user.id,
          actor: 'system',
          type: 'guarantor.named',
          payload: { aval_id: user.id, aval_type: 'PARTNER' },
          at: t.app.clock(),
        });
      await named();
      const view = async () => {
        const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/webhook-endpoints', headers: admin });
        return (
          res.json().data.endpoints as {
            id: string;
            enabled: boolean;
            failing_since: string | null;
            disabled_reason: string | null;
          }[]
        ).find((one) => one.id === endpoint.id)!;
      };
      await vi.waitFor(async () => expect((await view()).failing_since).not.toBeNull(), { timeout: 10_000 });
      // Five days later it still fails: the next failure disables it.
      clock.advance(5 * 86_400 + 60);
      await named();
      await vi.waitFor(
        async () => {
          const [row] = await t.app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
          expect(row?.disabledAt).not.toBeNull();
        },
        { timeout: 15_000 },
      );
      // The admins are told: the trail says so (the back office shows it on every admin's screens).
      const [disabled] = await t.app.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.type, 'integrations.endpoint_disabled'));
      expect(disabled?.payload).toMatchObject({ endpoint_id: endpoint.id });
      // Signatures carry the time they are made, and the admin's session its own: back to today's clock.
      clock.advance(-(5 * 86_400 + 60));
      expect(await view()).toMatchObject({ enabled: false, disabled_reason: 'Sin respuesta correcta durante 5 días' });
      // What happens while it is disabled waits for it.
      await named();

      receiver.up();
      const enabled = await t.app.inject({
        method: 'PATCH',
        url: `/api/backoffice/webhook-endpoints/${endpoint.id}`,
        headers: admin,
        payload: { enabled: true },
      });
      expect(enabled.json().data).toMatchObject({ enabled: true, failing_since: null });
      await vi.waitFor(
        () => expect(receiver.of(user.id).map((delivery) => delivery.event.sequence)).toEqual([1, 2, 3]),
        {
          timeout: 15_000,
        },
      );
    } finally {
      await receiver.close();
    }
  });
});

describe('a send’s edges: a silent or slow receiver, an early job, a lost job, a lost lease', () => {
  // This process runs no worker: the test runs the jobs itself, one at a time.
  const t = useTestApp({ JOB_POLL_INTERVAL_MS: '0', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_SECONDS: '60' });
  const sendJob = () => t.app.jobs.kind(WEBHOOK_SEND_JOB)!;
  const sendsOf = (endpointId: string) =>
    t.app.db.select().from(webhookSends).where(eq(webhookSends.endpointId, endpointId));

  /** An endpoint at `url` and one event of a new application for it: the job's data. */
  async function oneEvent(url: string) {
    const endpoint = await createWebhookEndpoint(t.app, url);
    const user = await createApplication(t.app);
    await appendAuditEvent(t.app.db, {
      applicationId: user.id,
      actor: 'system',
      type: 'guarantor.named',
      payload: { aval_id: user.id, aval_type: 'PARTNER' },
      at: t.app.clock(),
    });
    return { endpoint, data: { endpoint_id: endpoint.id, application_id: user.id } };
  }

  /** A receiver that answers nothing, or its status and then a body that never ends. */
  async function stubbornReceiver(mode: 'silent' | 'trickle') {
    const server = createServer((_request, response) => {
      if (mode === 'silent') return;
      response.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => response.write('.'), 200);
      response.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
      close: () =>
        new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()),
    };
  }

  it('a receiver that never answers fails the try within WEBHOOK_TIMEOUT_MS; one that trickles its body is a delivery', async () => {
    const silent = await stubbornReceiver('silent');
    const trickle = await stubbornReceiver('trickle');
    try {
      const quiet = await oneEvent(silent.url);
      const started = performance.now();
      await sendJob().run(quiet.data, { retry: 0, last: false });
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(await sendsOf(quiet.endpoint.id)).toMatchObject([
        { status: 'PENDING', attempts: 1, lastError: 'sin respuesta a tiempo' },
      ]);
      const slow = await oneEvent(trickle.url);
      await sendJob().run(slow.data, { retry: 0, last: false });
      expect(await sendsOf(slow.endpoint.id)).toMatchObject([{ status: 'DELIVERED', lastStatusCode: 200 }]);
    } finally {
      await silent.close();
      await trickle.close();
    }
  });

  it('a job a moment early is tried again by the queue; a send that lost its job is found by the sweep', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { endpoint, data } = await oneEvent(receiver.url);
      receiver.secrets.push(endpoint.secret);
      // Not due yet (its retry is a minute away): the job fails so that the queue tries it again.
      await t.app.db
        .update(webhookSends)
        .set({ nextAttemptAt: sql`now() + interval '1 minute'` })
        .where(eq(webhookSends.endpointId, endpoint.id));
      await expect(sendJob().run(data, { retry: 0, last: false })).rejects.toThrow('not due yet');
      // Due for five minutes and no job for it: the sweep gives it one, and it goes.
      await t.app.db
        .update(webhookSends)
        .set({ nextAttemptAt: sql`now() - interval '5 minutes'` })
        .where(eq(webhookSends.endpointId, endpoint.id));
      await t.app.jobs.kind('webhook-sends-sweep')!.run({}, { retry: 0, last: false });
      // (The other tests' jobs run too: a retry not due yet fails again, as it should.)
      await runQueuedJobs(t.app, WEBHOOK_SEND_JOB);
      expect(receiver.of(data.application_id)).toHaveLength(1);
      expect(await sendsOf(endpoint.id)).toMatchObject([{ status: 'DELIVERED' }]);
    } finally {
      await receiver.close();
    }
  });

  it('a try whose lease was taken meanwhile (a replay) records nothing over what came after', async () => {
    const { endpoint, data } = await oneEvent('http://127.0.0.1:9/hooks');
    const held = await holdNextSend(t.app.db, endpoint.id, data.application_id, 60);
    expect(held).toBeDefined();
    const admin = await adminSession(t.app);
    const replayed = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/webhook-endpoints/${endpoint.id}/replay`,
      headers: admin,
      payload: { send_id: held!.id },
    });
    expect(replayed.statusCode, replayed.body).toBe(200);
    const late = await recordAttempt(t.app.db, held!, {
      status: 'FAILED',
      at: new Date(),
      statusCode: 500,
      error: 'HTTP 500',
    });
    expect(late).toBe(false);
    expect(await sendsOf(endpoint.id)).toMatchObject([{ status: 'PENDING', attempts: 0, lastStatusCode: null }]);
  });
});
