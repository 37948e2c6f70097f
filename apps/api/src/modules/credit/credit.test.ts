import { cedulaCheckDigit } from '@provee/domain';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditEvents, bureauConsents, bureauQueries, creditDecisions } from '../../db/schema.js';
import { BureauError, type BureauProvider } from '../../providers/bureau/index.js';
import { createBureauSimulator } from '../../providers/bureau/simulator.js';
import { createApplication, lastSmsPin, shopkeeperCall, userToken } from '../../test/factories.js';
import { createTestApp, manualClock, type TestApp, useTestApp, withTestApp } from '../../test/test-app.js';
import { verifyPassword } from './password.js';
import { jobsOf, runBureauJobs } from '../../test/jobs.js';
import { BUREAU_QUERY_JOB } from './bureau-schedule.js';
import { claimBureauQuery, markBureauQueryFailed } from './bureau-queries.store.js';

/** A valid cédula from its first ten digits (the simulator's test identities are 99900000NN). */
function cedula(ten: string): string {
  return `${ten}${cedulaCheckDigit(ten)}`;
}
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const IDENTITY = {
  strong: '9990000001',
  delinquent: '9990000002',
  thin: '9990000003',
  slow: '9990000004',
  failing: '9990000005',
};

describe('consent PIN, bureau and decision', () => {
  const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '1000', BUREAU_SLOW_MS: '1500' }, undefined, {
    clock,
  });

  const call = (method: 'GET' | 'POST' | 'PUT', user: { id: string; phone: string }, path: string, payload?: object) =>
    shopkeeperCall(t.app, user, method, path, payload);

  /** Through the PIN: sent, read from the outbox, confirmed. */
  const consent = async (taxTen: string, dob?: string) => {
    const user = await createApplication(t.app, { taxId: cedula(taxTen), ...(dob ? { dob } : {}) });
    expect((await call('POST', user, '/nip')).statusCode).toBe(200);
    const res = await call('PUT', user, '/nip', { nip: await lastSmsCode4(user.phone) });
    return { user, res };
  };
  const lastSmsCode4 = (phone: string) => lastSmsPin(t.app, phone);

  it('sends a 4-digit PIN by SMS; the step becomes ACCOUNT_BUREAU; NIP_PREFILL answers it', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const res = await call('POST', user, '/nip');
    expect(res.statusCode).toBe(200);
    const pin = await lastSmsCode4(user.phone);
    expect(res.json().data).toMatchObject({ resend_after_seconds: 60, default_nip: pin });
    const detail = await call('GET', user, '');
    expect(detail.json().data).toMatchObject({ next_step: 'ACCOUNT_BUREAU', status: 'IN_PROGRESS' });
    // A second PIN no sooner than 60 s.
    expect((await call('POST', user, '/nip')).statusCode).toBe(429);
  });

  it('a resend refused by the interval records nothing; one let through is recorded (fuzzing suite)', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const sent = async () =>
      (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).filter(
        (event) => event.type === 'consent.nip_sent',
      ).length;
    expect((await call('POST', user, '/nip')).statusCode).toBe(200);
    expect(await sent()).toBe(1);
    expect((await call('POST', user, '/nip')).statusCode).toBe(429);
    expect((await call('POST', user, '/nip')).statusCode).toBe(429);
    expect(await sent()).toBe(1);
    clock.advance(61);
    try {
      expect((await call('POST', user, '/nip')).statusCode).toBe(200);
      expect(await sent()).toBe(2);
    } finally {
      clock.advance(-61); // the tests below read the clock's start time
    }
  });

  it('without NIP_PREFILL the PIN is never in the answer', async () => {
    const other = await createTestApp();
    try {
      const user = await createApplication(other.app, { taxId: cedula(randomTen()) });
      const token = userToken(other.app, user);
      const res = await other.app.inject({
        method: 'POST',
        url: `/api/v1/users/${user.id}/SK/nip`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.default_nip).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('a wrong PIN is refused; after 5 wrong tries even the right one', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    await call('POST', user, '/nip');
    const pin = await lastSmsCode4(user.phone);
    const wrong = pin === '0000' ? '1111' : '0000';
    const first = await call('PUT', user, '/nip', { nip: wrong });
    expect(first.statusCode).toBe(400);
    expect(first.json().readable_message).toBe('El NIP no es correcto. Te quedan 4 intentos.');
    for (let i = 0; i < 4; i++) await call('PUT', user, '/nip', { nip: wrong });
    expect((await call('PUT', user, '/nip', { nip: pin })).statusCode).toBe(429);
    expect(await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.userId, user.id))).toHaveLength(0);
  });

  it('a clean report is approved for 10,000 DOP: consent, decision and pre-approval recorded', async () => {
    // Born 1985-02-28: 41 on the test clock's day, the age the decision's inputs record.
    const { user, res } = await consent(randomTen(), '1985-02-28');
    expect(res.statusCode).toBe(200);
    // The answer carries the amount, so the pre-approval screen needs no second request.
    expect(res.json().data).toMatchObject({
      next_step: 'PASSWORD',
      status: 'IN_PROGRESS',
      pre_approval: { amount: 10_000, currency: 'DOP' },
    });

    const consents = (await call('GET', user, '/consents')).json().data;
    expect(consents).toHaveLength(1);
    const [row] = consents;
    expect(row.consent_text).toMatch(/^Por este medio autorizo expresamente a Provee/);
    expect(row.consent_text_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row).toMatchObject({
      person_type: 'titular',
      pin_verified: true,
      consent_version: '2026-11-01',
      bureau_folio: expect.stringMatching(/^PRV-20261121-/),
    });
    expect(row.authorized_until).toBe('2029-11-21T15:00:00.000Z');

    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id));
    expect(decision).toMatchObject({
      result: 'APPROVED',
      amount: 10_000,
      currency: 'DOP',
      policyVersion: '2026-11-01',
      consentId: row.id,
    });
    expect(decision!.inputs).toMatchObject({
      age: 41,
      city_allowed: true,
      business_age_years: 3,
      sales_range: 3,
      delinquencies: 0,
    });
    expect(decision!.rules.every((rule) => rule.passed)).toBe(true);
    expect((await call('GET', user, '')).json().data.pre_approval).toEqual({ amount: 10_000, currency: 'DOP' });
  });

  it('test identity "strong" is approved with a score of 780', async () => {
    const { user, res } = await consent(IDENTITY.strong);
    expect(res.statusCode).toBe(200);
    const [query] = await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id));
    expect(query!.report).toMatchObject({ score: 780, delinquencies: 0 });
  });

  it('test identity "delinquent" is rejected: 422, status REJECTED, the failed rules recorded', async () => {
    const { user, res } = await consent(IDENTITY.delinquent);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('NOT_ELIGIBLE');
    expect((await call('GET', user, '')).json().data).toMatchObject({
      next_step: 'PASSWORD',
      status: 'REJECTED',
      pre_approval: null,
    });
    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id));
    expect(decision!.result).toBe('REJECTED');
    expect(decision!.rules.filter((rule) => !rule.passed).map((rule) => rule.rule)).toEqual([
      'min_score',
      'max_delinquencies',
    ]);
  });

  it('test identity "thin file" gets no score and the default policy approves it', async () => {
    const { user, res } = await consent(IDENTITY.thin);
    expect(res.statusCode).toBe(200);
    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id));
    expect(decision!.inputs).toMatchObject({ score: null, thin_file: true });
    expect(decision!.result).toBe('APPROVED');
  });

  it('test identity "slow": the answer is WAITING, and the decision lands when the bureau answers', async () => {
    const { user, res } = await consent(IDENTITY.slow);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ next_step: 'ACCOUNT_BUREAU', status: 'WAITING' });
    await expect
      .poll(async () => (await call('GET', user, '')).json().data.status, { timeout: 5_000 })
      .toBe('IN_PROGRESS');
    expect((await call('GET', user, '')).json().data.next_step).toBe('PASSWORD');
  });

  it('test identity "failing": WAITING, retried with back-off, the decision recorded by the retry', async () => {
    const { user, res } = await consent(IDENTITY.failing);
    expect(res.json().data.status).toBe('WAITING');
    const query = async () =>
      (await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id)))[0]!;
    let row = await query();
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(row.nextAttemptAt.getTime() - clock().getTime()).toBe(5_000);
    // Not due yet: nothing happens.
    clock.advance(4);
    await runBureauJobs(t.app);
    expect((await query()).attempts).toBe(1);
    // Second and third tries fail, 10 s then 20 s apart.
    clock.advance(1);
    await runBureauJobs(t.app);
    row = await query();
    expect(row).toMatchObject({ status: 'PENDING', attempts: 2 });
    expect(row.nextAttemptAt.getTime() - clock().getTime()).toBe(10_000);
    clock.advance(10);
    await runBureauJobs(t.app);
    expect((await query()).attempts).toBe(3);
    clock.advance(20);
    await runBureauJobs(t.app);
    expect(await query()).toMatchObject({ status: 'DONE', attempts: 4 });
    expect((await call('GET', user, '')).json().data).toMatchObject({ next_step: 'PASSWORD', status: 'IN_PROGRESS' });
    // Each call to the bureau is in the logs, by query id and attempt: four tries, one answer.
    const ofQuery = (msg: string) =>
      t.logs.filter((line) => line.msg === msg && line.queryId === row.id).map((line) => line.attempt);
    expect(ofQuery('bureau attempt started')).toEqual([1, 2, 3, 4]);
    expect(ofQuery('bureau query failed')).toEqual([1, 2, 3]);
    expect(ofQuery('bureau answered')).toEqual([4]);
  });

  it('the PIN is refused at another step (409) and for another user (403)', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'ABOUT_STORE' });
    expect((await call('POST', user, '/nip')).statusCode).toBe(409);
    const other = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const token = userToken(t.app, user);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/users/${other.id}/SK/nip`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('a consent text that changed since the screen showed it is refused (409)', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    await call('POST', user, '/nip');
    const res = await call('PUT', user, '/nip', {
      nip: await lastSmsCode4(user.phone),
      consent_sha256: '0'.repeat(64),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CONSENT_TEXT_CHANGED');
  });

  it('GET /v1/consents/text serves the text with its version and hash', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/api/v1/consents/text' })).json();
    expect(data.version).toBe('2026-11-01');
    expect(data.text).toContain('3 años');
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    await call('POST', user, '/nip');
    expect(
      (await call('PUT', user, '/nip', { nip: await lastSmsCode4(user.phone), consent_sha256: data.sha256 }))
        .statusCode,
    ).toBe(200);
  });
});

describe('consent evidence', () => {
  it('the consent row exists before any bureau call', async () => {
    const seen: number[] = [];
    // The provider looks into the app's database at the moment it is asked.
    const box: { t?: TestApp } = {};
    const simulator = createBureauSimulator({ latencyMs: 0, slowMs: 0 });
    const watching: BureauProvider = {
      name: 'watching',
      needsPerson: false,
      async query(subject, signal) {
        const rows = await box
          .t!.app.db.select()
          .from(bureauConsents)
          .where(eq(bureauConsents.bureauFolio, subject.consentFolio));
        seen.push(rows.length);
        return simulator.query(subject, signal);
      },
    };
    const t = await createTestApp({}, undefined, { bureau: watching });
    box.t = t;
    try {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
      const token = userToken(t.app, user);
      const auth = { authorization: `Bearer ${token}` };
      await t.app.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers: auth });
      const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` })).json();
      const pin = /\b(\d{4})\b/.exec(outbox.messages[0].body)![1];
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/v1/users/${user.id}/SK/nip`,
            headers: auth,
            payload: { nip: pin },
          })
        ).statusCode,
      ).toBe(200);
      expect(seen).toEqual([1]);
    } finally {
      await t.close();
    }
  });

  it('the database refuses to change or remove a consent or a decision', async () => {
    await withTestApp({}, async (t) => {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'ACCOUNT_BUREAU' });
      const now = new Date();
      const [row] = await t.app.db
        .insert(bureauConsents)
        .values({
          userId: user.id,
          personType: 'titular',
          consentText: 'x',
          consentTextSha256: 'y',
          consentVersion: 'v',
          createdAt: now,
          ip: '1',
          pinVerified: true,
          bureauFolio: 'F-1',
          authorizedUntil: now,
        })
        .returning();
      await expect(t.app.db.execute(sql`update bureau_consents set ip = '2' where id = ${row!.id}`)).rejects.toThrow();
      await expect(t.app.db.execute(sql`delete from bureau_consents where id = ${row!.id}`)).rejects.toThrow();
      await t.app.db.insert(creditDecisions).values({
        userId: user.id,
        consentId: row!.id,
        policyVersion: 'v',
        inputs: {},
        rules: [],
        result: 'APPROVED',
        amount: 1,
        currency: 'DOP',
        createdAt: now,
      });
      await expect(t.app.db.execute(sql`update credit_decisions set amount = 99999`)).rejects.toThrow();
      await expect(t.app.db.execute(sql`delete from credit_decisions`)).rejects.toThrow();
    });
  });
});

describe('password and advisor', () => {
  const t = useTestApp();

  const approved = async () => {
    const user = await createApplication(t.app, {
      taxId: cedula(randomTen()),
      nextStep: 'PASSWORD',
      status: 'IN_PROGRESS',
      dob: '1985-02-28',
    });
    const token = userToken(t.app, user);
    return { user, auth: { authorization: `Bearer ${token}` } };
  };

  it('refuses obvious passwords, the birth date and the phone’s digits, in Spanish under the field', async () => {
    const { user, auth } = await approved();
    const put = (password: string, confirmation = password) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${user.id}/SK/password`,
        headers: auth,
        payload: { password, password_confirmation: confirmation },
      });
    const message = async (password: string, confirmation?: string) =>
      (await put(password, confirmation)).json().issues;
    expect(await message('123456')).toEqual([
      {
        field: 'body.password',
        message: '* Elige una contraseña menos obvia: no repitas un número ni uses números seguidos.',
      },
    ]);
    expect(await message('280285')).toEqual([{ field: 'body.password', message: '* No uses tu fecha de nacimiento.' }]);
    expect(await message(user.phone.slice(-6))).toEqual([
      { field: 'body.password', message: '* No uses los últimos números de tu teléfono.' },
    ]);
    expect(await message('583920', '583921')).toEqual([
      { field: 'body.password_confirmation', message: '* Las contraseñas no coinciden.' },
    ]);
  });

  it('stores an argon2id hash and moves on to INVENTORY; a second time is a 409', async () => {
    const { user, auth } = await approved();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/password`,
      headers: auth,
      payload: { password: '583920', password_confirmation: '583920' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.next_step).toBe('INVENTORY');
    const rows = await t.app.db.execute(sql`select password_hash from users where id = ${user.id}`);
    const stored = JSON.stringify(rows).match(/\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]+\$[\w+/]+/)![0];
    expect(await verifyPassword('583920', stored)).toBe(true);
    expect(await verifyPassword('583921', stored)).toBe(false);
    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/password`,
      headers: auth,
      payload: { password: '583920', password_confirmation: '583920' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ current: { next_step: 'INVENTORY', status: 'IN_PROGRESS' } });
  });

  it('a rejected application cannot set a password', async () => {
    const user = await createApplication(t.app, {
      taxId: cedula(randomTen()),
      nextStep: 'PASSWORD',
      status: 'REJECTED',
    });
    const token = userToken(t.app, user);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/password`,
      headers: { authorization: `Bearer ${token}` },
      payload: { password: '583920' },
    });
    expect(res.statusCode).toBe(409);
  });

  it('refuses an advisor event before the password or for a rejected application (409 with where it stands)', async () => {
    for (const [nextStep, status] of [
      ['PASSWORD', 'IN_PROGRESS'],
      ['PASSWORD', 'REJECTED'],
      ['ACCOUNT_NIP', 'REJECTED'],
      ['INVENTORY', 'REJECTED'],
      ['ABOUT_STORE', 'IN_PROGRESS'],
    ] as const) {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep, status });
      const token = userToken(t.app, user);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${user.id}/SK/advisor-events`,
        headers: { authorization: `Bearer ${token}` },
        payload: { contact_type: 'CALL_ADVISER' },
      });
      expect(res.statusCode, `${nextStep}/${status}`).toBe(409);
      expect(res.json()).toMatchObject({ code: 'STEP_NOT_CURRENT', current: { next_step: nextStep, status } });
      expect(res.json().readable_message).toMatch(/asesor/);
      const rows = await t.app.db.execute(
        sql`select count(*)::int as n from advisor_events where user_id = ${user.id}`,
      );
      expect(JSON.stringify(rows)).toMatch(/"n":0/);
    }
  });

  it('records each advisor contact type', async () => {
    const user = await createApplication(t.app, {
      taxId: cedula(randomTen()),
      nextStep: 'INVENTORY',
      status: 'IN_PROGRESS',
    });
    const auth = {
      authorization: `Bearer ${userToken(t.app, user)}`,
    };
    for (const type of ['CALL_ADVISER', 'WITH_ADVISER', 'WHATSAPP_CHAT']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${user.id}/SK/advisor-events`,
        headers: auth,
        payload: { contact_type: type },
      });
      expect(res.statusCode).toBe(201);
    }
    const rows = await t.app.db.execute(
      sql`select contact_type from advisor_events where user_id = ${user.id} order by id`,
    );
    expect(JSON.stringify(rows)).toMatch(/CALL_ADVISER.*WITH_ADVISER.*WHATSAPP_CHAT/);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/users/${user.id}/SK/advisor-events`,
          headers: auth,
          payload: { contact_type: 'EMAIL' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('an attempt holds its bureau query only while its lease is the one on the row', () => {
  it('past its lease, once another attempt took the query, its end changes nothing', async () => {
    const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
    // A bureau that is down: every query waits for its next try.
    const down: BureauProvider = {
      name: 'down',
      needsPerson: false,
      query: () => Promise.reject(new BureauError('bureau down')),
    };
    const t = await createTestApp({ BUREAU_SYNC_WAIT_MS: '1000' }, undefined, { clock, bureau: down });
    try {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
      const headers = { authorization: `Bearer ${userToken(t.app, user)}` };
      const url = `/api/v1/users/${user.id}/SK/nip`;
      await t.app.inject({ method: 'POST', url, headers });
      const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` })).json();
      const nip = /\b(\d{4})\b/.exec(outbox.messages[0].body)![1]!;
      await t.app.inject({ method: 'PUT', url, headers, payload: { nip } });
      const query = async () =>
        (await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id)))[0]!;
      expect(await query()).toMatchObject({ status: 'PENDING', attempts: 1 });
      clock.advance(10);
      const lease = (seconds: number) => new Date(clock().getTime() + seconds * 1000);
      const a = (await claimBureauQuery(t.app.db, (await query()).id, clock(), lease(1)))!;
      clock.advance(2);
      const b = (await claimBureauQuery(t.app.db, a.id, clock(), lease(30)))!;
      expect(b).toMatchObject({ status: 'RUNNING' });
      const end = (claim: typeof a, failure: 'integrity' | null) =>
        markBureauQueryFailed(t.app.db, claim, {
          failure,
          attempts: 2,
          nextAttemptAt: clock(),
          lastError: 'x',
          provider: 'down',
          at: clock(),
        });
      // A comes back late: it no longer holds the query; B's attempt does.
      expect(await end(a, 'integrity')).toBe(false);
      expect(await query()).toMatchObject({ status: 'RUNNING', lockedUntil: b.lockedUntil, failure: null });
      expect(await end(b, null)).toBe(true);
      expect(await query()).toMatchObject({ status: 'PENDING', lockedUntil: null });
    } finally {
      await t.close();
    }
  });
});

describe('the bureau query is a job of the consent (decision 030)', () => {
  it('a consent whose process dies during its first attempt gets its answer once another runs the queue', async () => {
    // Process A: its bureau never answers, and it stops right after the consent's answer (WAITING).
    const hanging: BureauProvider = { name: 'hanging', needsPerson: false, query: () => new Promise(() => {}) };
    const a = await createTestApp(
      { BUREAU_TIMEOUT_MS: '100', BUREAU_SYNC_WAIT_MS: '200', JOB_POLL_INTERVAL_MS: '0' },
      undefined,
      { bureau: hanging },
    );
    let b: TestApp | undefined;
    try {
      const user = await createApplication(a.app, { taxId: cedula(randomTen()) });
      expect((await shopkeeperCall(a.app, user, 'POST', '/nip')).statusCode).toBe(200);
      const pin = await lastSmsPin(a.app, user.phone);
      const res = await shopkeeperCall(a.app, user, 'PUT', '/nip', { nip: pin });
      expect(res.json().data).toMatchObject({ next_step: 'ACCOUNT_BUREAU', status: 'WAITING' });
      const [query] = await a.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id));
      expect(query).toMatchObject({ status: 'RUNNING', attempts: 0 });
      // Its job was committed with the consent, held back until the attempt's lease is over.
      expect(
        (await jobsOf(a.app, BUREAU_QUERY_JOB)).filter((job) => (job.data as { id: string }).id === query!.id),
      ).toEqual([expect.objectContaining({ state: 'created' })]);
      await a.app.close();

      // Process B, on the same database, runs the queue with a bureau that answers.
      b = await createTestApp({ JOB_KINDS_OFF: '', JOB_POLL_INTERVAL_MS: '500' }, undefined, { database: a.database });
      const app = b.app;
      await vi.waitFor(
        async () =>
          expect((await shopkeeperCall(app, user, 'GET', '')).json().data).toMatchObject({
            next_step: 'PASSWORD',
            status: 'IN_PROGRESS',
          }),
        { timeout: 20_000, interval: 250 },
      );
      const [done] = await app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id));
      expect(done).toMatchObject({ status: 'DONE', attempts: 1 });
      expect(await app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id))).toHaveLength(1);
      expect(b.logs.filter((line) => line.msg === 'bureau attempt started' && line.queryId === query!.id)).toHaveLength(
        1,
      );
    } finally {
      await b?.app.close();
      await a.close();
    }
  });

  it('a query left without a job (written before the queue ran them) gets one from the schedule’s sweep', async () => {
    const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
    const down: BureauProvider = {
      name: 'down',
      needsPerson: false,
      query: () => Promise.reject(new BureauError('bureau down')),
    };
    const t = await createTestApp({ BUREAU_SYNC_WAIT_MS: '1000' }, undefined, { clock, bureau: down });
    try {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
      expect((await shopkeeperCall(t.app, user, 'POST', '/nip')).statusCode).toBe(200);
      const nip = await lastSmsPin(t.app, user.phone);
      await shopkeeperCall(t.app, user, 'PUT', '/nip', { nip });
      const [query] = await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id));
      const ofQuery = async () =>
        (await jobsOf(t.app, BUREAU_QUERY_JOB)).filter(
          (job) => (job.data as { id: string }).id === query!.id && ['created', 'retry'].includes(job.state),
        );
      // As an older version left it: the query waits for its retry, and no job is there for it.
      await t.app.db.execute(sql`delete from pgboss.job where name = ${BUREAU_QUERY_JOB}`);
      const sweep = t.app.jobs.kind('bureau-jobs-sweep')!;
      await sweep.run({}, { retry: 0, last: false });
      expect((await ofQuery()).map((job) => job.data)).toEqual([
        { id: query!.id, due_at: query!.nextAttemptAt.toISOString() },
      ]);
      // A second sweep finds it owned.
      await sweep.run({}, { retry: 0, last: false });
      expect(await ofQuery()).toHaveLength(1);
      clock.advance(5);
      await runBureauJobs(t.app);
      expect((await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.id, query!.id)))[0]).toMatchObject({
        attempts: 2,
      });
    } finally {
      await t.close();
    }
  });

  it('a consent that does not commit leaves no job; a failed attempt enqueues the next one, due at its time', async () => {
    const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
    const down: BureauProvider = {
      name: 'down',
      needsPerson: false,
      query: () => Promise.reject(new BureauError('bureau down')),
    };
    const t = await createTestApp({ BUREAU_SYNC_WAIT_MS: '1000' }, undefined, { clock, bureau: down });
    try {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
      expect((await shopkeeperCall(t.app, user, 'POST', '/nip')).statusCode).toBe(200);
      const nip = await lastSmsPin(t.app, user.phone);
      // Twenty confirmations at once: one consent commits, and with it one query and its job.
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => shopkeeperCall(t.app, user, 'PUT', '/nip', { nip })),
      );
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      const queries = await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id));
      expect(queries).toHaveLength(1);
      const query = queries[0]!;
      expect(query).toMatchObject({ status: 'PENDING', attempts: 1 });
      const jobs = (await jobsOf(t.app, BUREAU_QUERY_JOB))
        .map((job) => job.data as { id: string; due_at: string })
        .filter((data) => data.id === query.id);
      // The consent's job (due at the consent) and the failed attempt's (due at its next try).
      expect(jobs.map((data) => data.due_at)).toEqual([clock().toISOString(), query.nextAttemptAt.toISOString()]);
    } finally {
      await t.close();
    }
  });
});
