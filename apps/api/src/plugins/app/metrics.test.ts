// Issue 32: the Prometheus metrics. Never public (a bearer token on the main port, or a port of
// their own); after a scripted journey the business counters moved by exactly its steps, counted
// only once committed; no personal data in any label. Both databases.
import { readFileSync } from 'node:fs';
import { freePort } from '../../../../../scripts/reliability/harness.mjs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createPng } from '../../test/factories.js';
import { createPhone } from '../../test/phone.js';
import { registerProvenPhone, registrationData } from '../../test/registration.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { createTestApp, createTestDatabase, useTestApp } from '../../test/test-app.js';
import { appendAuditEvent } from '../../modules/audit/index.js';
import { dbStatementsInFlight, readFrom, registry } from '../../observability/metrics.js';
import { queueDepth } from '../../modules/jobs/index.js';
import { RETENTION_JOB } from '../../modules/privacy/index.js';
import { API_ROOT } from '../../paths.js';
import type { App } from '../../types.js';

const TOKEN = 'metrics-token-metrics-token';

const poolDemandGauge = () => registry.getSingleMetric('provee_db_pool_demand')!.get();

async function scrape(app: App) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

/** A sample's value in the Prometheus text (0 when the series is not there yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    const have = labelText ? labelText.split(/,(?=[a-z_]+=")/) : [];
    if (wanted.every((pair) => have.includes(pair)) && have.length === wanted.length)
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

const business = (text: string, event: string, outcome = '') =>
  sample(text, 'provee_business_events_total', { event, outcome });

describe('the metrics endpoint', () => {
  const t = useTestApp({ ...MANY_UPLOADS_ENV, METRICS_TOKEN: TOKEN });

  it('is refused without its token or with another; with it, the Prometheus text', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('UNAUTHORIZED');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-but-not-this-one' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/business-types' })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(res.body, 'provee_http_requests_total', { route: '/api/v1/business-types', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    // The metrics path itself is never counted, refused or answered.
    expect(sample(res.body, 'provee_http_requests_total', { route: '/metrics', method: 'GET', status: '401' })).toBe(0);
    for (const name of ['nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes'])
      expect(res.body).toContain(`# TYPE ${name}`);
    expect(res.body).toContain(
      'provee_http_request_duration_seconds_bucket{le="0.005",route="/api/v1/business-types",method="GET"}',
    );
    // The queue's depth, read from the database at the scrape.
    expect(res.body).toContain('# TYPE provee_jobs gauge');
    if (t.app.database.kind === 'pglite') expect(res.body).toMatch(/^provee_embedded_database_queue \d+$/m);
  });

  it('after a scripted journey the business counters moved by its steps, and no label holds personal data', async () => {
    const before = await scrape(t.app);
    // The phone proven by SMS code and the registration, over the API.
    const phone = createPhone();
    const registered = await registerProvenPhone(t.app, phone, registrationData(phone));
    expect(registered.statusCode, registered.body).toBe(201);
    // A shopkeeper at the consent step: PIN consent and pre-approval, identity check, signature.
    const signer = await verifiedSigner(t.app);
    expect((await sendSignature(t.app, signer, createPng({ width: 280, height: 120 }))).statusCode).toBe(200);
    const after = await scrape(t.app);

    const moved = (event: string, outcome = '') => business(after, event, outcome) - business(before, event, outcome);
    expect({
      application_started: moved('application_started'),
      phone_proven: moved('phone_proven'),
      consent_given: moved('consent_given'),
      approved: moved('decision', 'APPROVED'),
      rejected: moved('decision', 'REJECTED'),
      guarantor_consented: moved('guarantor_consented'),
      signed: moved('contract_signed', 'titular'),
    }).toEqual({
      application_started: 1,
      phone_proven: 1,
      consent_given: 1,
      approved: 1,
      rejected: 0,
      guarantor_consented: 0,
      signed: 1,
    });
    // The messages went through the (instrumented) provider, WhatsApp first; the copy job ran on the queue.
    expect(
      sample(after, 'provee_provider_calls_total', { provider: 'whatsapp', operation: 'send', outcome: 'ok' }),
    ).toBeGreaterThan(
      sample(before, 'provee_provider_calls_total', { provider: 'whatsapp', operation: 'send', outcome: 'ok' }),
    );
    expect(after).toMatch(
      /^provee_provider_call_duration_seconds_count\{provider="bureau",operation="[a-zA-Z]+"\} [1-9]/m,
    );

    // Labels are templates and outcomes: never the phone, an id or a name.
    const labels = after
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .map((line) => /\{(.*)\}/.exec(line)?.[1] ?? '')
      .join('\n');
    for (const secret of [phone, phone.slice(-7), signer.userId, registered.json().data.id, 'María', 'Peña'])
      expect(labels).not.toContain(secret);
  });

  it("reports the queue's waiting jobs and the oldest one's age; a database that fails leaves them out, not the scrape", async () => {
    // A kind no worker runs in the tests (they drive it by hand): its job waits.
    await t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, RETENTION_JOB, {}));
    const text = await scrape(t.app);
    expect(sample(text, 'provee_jobs', { kind: RETENTION_JOB, state: 'waiting' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      new RegExp(`^provee_jobs_oldest_waiting_seconds\\{kind="${RETENTION_JOB}"\\} [0-9.e-]+$`, 'm'),
    );

    const errorsBefore = sample(text, 'provee_metrics_source_errors_total');
    readFrom({ jobQueue: () => Promise.reject(new Error('database down')), embeddedQueue: () => null });
    try {
      const during = await scrape(t.app);
      expect(sample(during, 'provee_jobs', { kind: RETENTION_JOB, state: 'waiting' })).toBe(0);
      expect(during).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    } finally {
      readFrom({ jobQueue: () => queueDepth(t.app.db), embeddedQueue: () => t.app.database.waiting() });
    }
    // Counted as it happened (the counter may be read before, in the same scrape): seen on the next.
    const after = await scrape(t.app);
    expect(sample(after, 'provee_metrics_source_errors_total')).toBe(errorsBefore + 1);
    expect(sample(after, 'provee_jobs', { kind: RETENTION_JOB, state: 'waiting' })).toBeGreaterThanOrEqual(1);
  });

  it("times the database's statements by operation; none stays in flight once answered; PostgreSQL's pool size", async () => {
    const engine = t.app.database.kind;
    const before = await scrape(t.app);
    const statements = (text: string, operation: string) =>
      sample(text, 'provee_db_statement_duration_seconds_count', { engine, operation });
    // Three reads, one write (each its own statement), and one that fails.
    await Promise.all([1, 2, 3].map(() => t.app.db.execute(sql`select 1`)));
    await t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, RETENTION_JOB, {}));
    await expect(t.app.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    const after = await scrape(t.app);
    expect(statements(after, 'SELECT') - statements(before, 'SELECT')).toBeGreaterThanOrEqual(4);
    expect(statements(after, 'INSERT') - statements(before, 'INSERT')).toBeGreaterThanOrEqual(1);
    // Every statement answered, none stays counted in flight (read outside a scrape, whose own read
    // of the queue is in flight while it reports; one poll of the job queue's may be under way).
    const inFlight = async () =>
      (await dbStatementsInFlight.get()).values.find((value) => value.labels.engine === engine)?.value ?? 0;
    // (The earlier journey's messages and their simulated delivery reports may still be finishing.)
    await vi.waitFor(async () => expect(await inFlight()).toBeLessThanOrEqual(1), { timeout: 10_000, interval: 100 });
    expect(sample(after, 'provee_db_pool_connections_max')).toBe(engine === 'postgres' ? 10 : 0);
    // PostgreSQL's pool demand: an open transaction holds a connection until it ends.
    const demand = async () => (await poolDemandGauge()).values[0]?.value ?? 0;
    let during = 0;
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      during = await demand();
    });
    expect(during).toBeGreaterThanOrEqual(engine === 'postgres' ? 1 : 0);
    // Once it ended, the demand goes back (the earlier journey's messages and their simulated
    // delivery reports may still be finishing on the queue meanwhile).
    await vi.waitFor(async () => expect(await demand()).toBeLessThanOrEqual(1), { timeout: 10_000, interval: 100 });
    if (engine === 'pglite') expect(await demand()).toBe(0);
  });

  it('a change that rolls back counts nothing; the same change committed counts once', async () => {
    const count = async () => business(await scrape(t.app), 'consent_given');
    const before = await count();
    const event = {
      applicationId: 'metrics-rollback',
      actor: 'system',
      type: 'consent.given',
      payload: {},
      at: new Date(),
    };
    await expect(
      t.app.db.transaction(async (tx) => {
        await appendAuditEvent(tx, event);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await count()).toBe(before);
    await t.app.db.transaction(async (tx) => {
      await appendAuditEvent(tx, event);
      await tx.execute(sql`select 1`);
    });
    expect(await count()).toBe(before + 1);
  });

  it('in a savepoint, a change counts once its outermost transaction commits, never when either rolls back', async () => {
    const count = async () => business(await scrape(t.app), 'consent_given');
    const event = {
      applicationId: 'metrics-savepoint',
      actor: 'system',
      type: 'consent.given',
      payload: {},
      at: new Date(),
    };
    const before = await count();
    // The savepoint released, the outer transaction rolled back.
    await expect(
      t.app.db.transaction(async (tx) => {
        await tx.transaction((savepoint) => appendAuditEvent(savepoint, event));
        expect(await count()).toBe(before);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await count()).toBe(before);
    // The savepoint rolled back, the outer transaction committed.
    await t.app.db.transaction(async (tx) => {
      await expect(
        tx.transaction(async (savepoint) => {
          await appendAuditEvent(savepoint, event);
          throw new Error('savepoint rolled back');
        }),
      ).rejects.toThrow('savepoint rolled back');
    });
    expect(await count()).toBe(before);
    // Both committed: counted once, after the commit.
    await t.app.db.transaction(async (tx) => {
      await tx.transaction((savepoint) => appendAuditEvent(savepoint, event));
      expect(await count()).toBe(before);
    });
    expect(await count()).toBe(before + 1);
    // Outside any transaction the append opens its own, and counts once it has committed.
    await appendAuditEvent(t.app.db, event);
    expect(await count()).toBe(before + 2);
  });
});

describe('metrics without a token', () => {
  it('are not served on the main port; on METRICS_PORT they are, without a token', async () => {
    const port = await freePort();
    const own = await createTestApp({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' });
    try {
      await own.app.listen({ host: '127.0.0.1', port: 0 });
      const main = own.app.server.address() as { port: number };
      const onMain = await fetch(`http://127.0.0.1:${main.port}/metrics`);
      expect(onMain.status).toBe(401);
      const withAnyToken = await fetch(`http://127.0.0.1:${main.port}/metrics`, {
        headers: { authorization: 'Bearer anything-anything-anything' },
      });
      expect(withAnyToken.status).toBe(401);
      const separate = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(separate.status).toBe(200);
      expect(await separate.text()).toContain('# TYPE provee_http_requests_total counter');
      expect((await fetch(`http://127.0.0.1:${port}/anything-else`)).status).toBe(404);
    } finally {
      await own.close();
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('a metrics port already taken stops the start with the error, rather than running without metrics', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const { database, drop } = await createTestDatabase();
    try {
      const { port } = taken.address() as { port: number };
      await expect(
        createTestApp({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' }, undefined, { database }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      taken.close();
      await drop();
    }
  });
});

describe('the alert rules and the dashboard in docs/', () => {
  it('use only metrics the product reports', () => {
    const used = ['prometheus-alerts.yml', 'grafana-dashboard.json'].flatMap((file) => {
      const text = readFileSync(join(API_ROOT, '../../docs', file), 'utf8');
      return [...text.matchAll(/\b(provee_[a-z_]+|nodejs_[a-z0-9_]+|process_[a-z_]+)\b/g)].map((match) => match[1]!);
    });
    expect(used.length).toBeGreaterThan(20);
    const reported = (name: string) =>
      registry.getSingleMetric(name) ?? registry.getSingleMetric(name.replace(/_(bucket|count|sum)$/, ''));
    expect([...new Set(used)].filter((name) => !reported(name))).toEqual([]);
  });
});
