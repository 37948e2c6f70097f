import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anonymousId, cedulaCheckDigit } from '@provee/domain';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { auditEvents, phoneCodes, users } from '../src/db/schema.js';
import { verifyAuditChain } from '../src/modules/audit/audit.service.js';
import { startBuiltServer, stopServer } from './built-server.js';

const JOURNEYS = 40;

const start = (env: Record<string, string>) =>
  startBuiltServer({
    LOG_LEVEL: 'fatal',
    RATE_LIMIT_PER_MINUTE: '100000',
    SMS_NUMBERS_PER_IP_PER_HOUR: '10000',
    ...env,
  });
const stop = stopServer;

/** One shopkeeper from the phone proof through the tax id, as fast as the server answers. */
async function journey(url: string, n: number, registeredOne: () => void): Promise<void> {
  const phone = `8094${String(100000 + n).padStart(6, '0')}`;
  const json = async (method: string, path: string, body?: object, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
    return res.json();
  };
  await json('POST', '/api/v1/users/code', { phone_number: phone, anonymous_id: anonymousId(phone) });
  const outbox = await json('GET', `/dev/outbox.json?to=%2B1${phone}`);
  const code = /\b(\d{6})\b/.exec(outbox.messages[0].body)![1];
  const proof = await json('PUT', '/api/v1/users/code', {
    phone_number: phone,
    code,
    anonymous_id: anonymousId(phone),
  });
  const registered = await json(
    'POST',
    '/api/v2/users',
    {
      account_type_id: 'SK',
      name: 'Ana',
      lastname: 'Peña',
      dob: '1985-02-28',
      length_of_residency_in_years: 3,
      marital_status: 'SINGLE',
      phone_number: phone,
      sales_identifier: '',
    },
    proof.data.authentication.access_token,
  );
  registeredOne();
  const ten = `4${String(n).padStart(3, '0')}${randomBytes(3).readUIntBE(0, 3).toString().padStart(6, '0').slice(0, 6)}`;
  await json(
    'POST',
    `/api/v1/users/${registered.data.user_id}/SK/tax_info`,
    { tax_payer_id: `${ten}${cedulaCheckDigit(ten)}` },
    registered.data.authentication.access_token,
  );
}

/** Every change that committed has its audit event: nothing half-written survives a SIGKILL. */
async function expectEveryStepAudited(database: Database): Promise<number> {
  const { db } = database;
  const rows = await db.select().from(users);
  for (const user of rows) {
    const events = await db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id));
    expect(
      events.filter((event) => event.type === 'user.registered'),
      user.id,
    ).toHaveLength(1);
    const taxSaved = events.filter((event) => event.type === 'step.saved' && event.payload.transition === 'tax-id');
    expect(taxSaved, `${user.id} at ${user.nextStep}`).toHaveLength(user.nextStep === 'TAX_ACCOUNT' ? 0 : 1);
    // The tax id and the move past its step are one change.
    expect(user.taxIdHash === null, user.id).toBe(user.nextStep === 'TAX_ACCOUNT');
    expect(await verifyAuditChain(db, user.id)).toMatchObject({ valid: true });
  }
  const consumed = await db
    .select({ id: phoneCodes.id })
    .from(phoneCodes)
    .where(and(eq(phoneCodes.purpose, 'phone-proof'), isNotNull(phoneCodes.consumedAt)));
  const proven = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(eq(auditEvents.type, 'phone.proven'), sql`${auditEvents.payload}->>'channel' = 'sms-code'`));
  expect(proven.length).toBe(consumed.length);
  return rows.length;
}

async function killDuringJourneys(env: Record<string, string>, open: () => Database): Promise<void> {
  const first = await start(env);
  // The kill comes once a quarter of the applications exist, while the others are mid-flight.
  let registered = 0;
  let quarter: () => void = () => {};
  const enough = new Promise<void>((resolve) => (quarter = resolve));
  const running = Array.from({ length: JOURNEYS }, (_, n) =>
    journey(first.url, n, () => ++registered >= JOURNEYS / 4 && quarter()).then(
      () => 'done',
      (error: Error) => error.message,
    ),
  );
  await Promise.race([enough, Promise.all(running)]);
  await stop(first.child, 'SIGKILL');
  const outcomes = await Promise.all(running);

  // A restart on the same data still serves, and everything committed is consistent.
  const second = await start(env);
  await stop(second.child, 'SIGTERM');
  const database = open();
  try {
    const found = await expectEveryStepAudited(database);
    const done = outcomes.filter((outcome) => outcome === 'done').length;
    expect(found, outcomes.join(', ')).toBeGreaterThanOrEqual(JOURNEYS / 4);
    expect(done).toBeLessThan(JOURNEYS);
    console.info(`SIGKILL after ${done} of ${JOURNEYS} journeys had finished; ${found} applications found`);
  } finally {
    await database.close();
  }
}

describe('SIGKILL during concurrent registrations', () => {
  it('on PGlite: every committed step has its audit event', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'provee-kill-'));
    try {
      await killDuringJourneys({ DATA_DIR: dataDir }, () => openDatabase({ dataDir }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // The same on the PostgreSQL of DATABASE_URL (CI sets it), in a database of its own.
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  afterAll(() => admin.end());

  it('on PostgreSQL: every committed step has its audit event', async () => {
    const name = `provee_kill_${Date.now()}_${randomBytes(3).toString('hex')}`;
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      await killDuringJourneys({ DATABASE_URL: url.toString() }, () =>
        openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' }),
      );
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    }
  }, 120_000);
});
