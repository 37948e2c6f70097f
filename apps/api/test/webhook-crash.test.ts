import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { API_ROOT } from '../src/paths.js';
import { startWebhookReceiver } from '../src/test/webhook-receiver.js';
// @ts-expect-error the scripts' login helper is plain JavaScript (scripts/staff-login.mjs)
import { staffLogin } from '../../../scripts/staff-login.mjs';
import { onEachDatabase, startBuiltServer, stopServer } from './built-server.js';

/**
 * Issue 30: the BUILT server killed with SIGKILL between a change and its webhook. The lender's
 * decision commits with its events and their send's job (the outbox); the process dies before any
 * worker looks; once started again, the receiver gets both events, verified with the Standard
 * Webhooks reference library, in sequence order. On PGlite and on the PostgreSQL of DATABASE_URL.
 */
const ADMIN = { email: 'admin-crash@provee.test', password: 'una-clave-larga-de-prueba-crash', name: 'Admin Crash' };
const BASE_ENV = {
  APP_SECRET: 'webhook-crash-test-secret-webhook-crash-test',
  ENABLE_TEST_FACTORIES: 'true',
  RATE_LIMIT_PER_MINUTE: '100000',
  LOG_LEVEL: 'warn',
};

/** The first admin, made the way a lender makes one: the built CLI, the password on standard input. */
function createAdmin(env: Record<string, string>) {
  execFileSync(
    process.execPath,
    [join(API_ROOT, 'dist/staff-create.js'), '--email', ADMIN.email, '--role', 'admin', '--name', ADMIN.name],
    { env: { PATH: process.env.PATH, ...BASE_ENV, ...env, PORT: '1' }, input: `${ADMIN.password}\n`, stdio: 'pipe' },
  );
}

type Answer = { ok: boolean; status: number; data: { data: Record<string, string> }; headers: Headers };
function caller(url: string) {
  return async (method: string, path: string, options: { json?: unknown; cookie?: string; token?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.cookie) headers.cookie = options.cookie;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
    });
    const text = await res.text();
    return { ok: res.ok, status: res.status, data: text ? JSON.parse(text) : null, headers: res.headers } as Answer;
  };
}

async function killBeforeDelivery(env: Record<string, string>) {
  const receiver = await startWebhookReceiver();
  createAdmin(env);
  // Workers look once a minute in this first life: the decision's send is still waiting when it dies.
  let server = await startBuiltServer({ ...BASE_ENV, ...env, JOB_POLL_INTERVAL_MS: '60000' });
  try {
    const request = caller(server.url);
    const cookie = await staffLogin(ADMIN)(request);
    const endpoint = await request('POST', '/api/backoffice/webhook-endpoints', {
      cookie,
      json: { url: receiver.url, event_types: ['lender_decision.recorded', 'application.step_changed'] },
    });
    expect(endpoint.status, JSON.stringify(endpoint.data)).toBe(200);
    receiver.secrets.push(endpoint.data.data.secret);
    const key = await request('POST', '/api/backoffice/partner-keys', {
      cookie,
      json: { name: 'Core', scopes: ['decisions:write'], expires_in_days: 1 },
    });
    expect(key.status).toBe(200);
    const phone = `809${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const seeded = await request('POST', '/dev/test/users', {
      json: { phone_number: phone, next_step: 'PENDING_APPROVAL' },
    });
    expect(seeded.status, JSON.stringify(seeded.data)).toBe(201);
    const applicationId = seeded.data.data.user_id as string;

    const decided = await request('POST', `/partner/v1/applications/${applicationId}/decision`, {
      token: key.data.data.token,
      json: { outcome: 'APPROVED', amount: 8_000, term_months: 6, annual_rate: 30 },
    });
    expect(decided.status, JSON.stringify(decided.data)).toBe(200);
    await stopServer(server.child);
    expect(receiver.requests()).toBe(0);

    server = await startBuiltServer({ ...BASE_ENV, ...env });
    await vi.waitFor(() => expect(receiver.of(applicationId)).toHaveLength(2), { timeout: 30_000, interval: 200 });
    const events = receiver.of(applicationId).map((delivery) => delivery.event);
    expect(events.map((event) => [event.sequence, event.type])).toEqual([
      [1, 'lender_decision.recorded'],
      [2, 'application.step_changed'],
    ]);
    expect(events[0]!.data).toMatchObject({ outcome: 'APPROVED', amount: 8_000 });
    expect(receiver.unverified).toEqual([]);
  } finally {
    await stopServer(server.child);
    await receiver.close();
  }
}

describe('SIGKILL between a change and its webhook (built server)', () => {
  onEachDatabase('the delivery arrives once the server is back', killBeforeDelivery);
});
