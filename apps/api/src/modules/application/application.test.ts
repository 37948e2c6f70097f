import { cedulaCheckDigit, type ApplicationStatus, type NextStep } from '@provee/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, businessAddresses, businesses, users } from '../../db/schema.js';
import { createApplication, shopkeeperCall } from '../../test/factories.js';
import { createPhone, phoneToken } from '../../test/phone.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { verifyPassword } from '../credit/index.js';
import { personCipher } from '../privacy/index.js';
import { claimStep, engineOf, moveApplication, releaseClaim } from './application.service.js';

const PARALLEL = 20;
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const statuses = (responses: { statusCode: number }[]) => responses.map((res) => res.statusCode).sort();

/**
 * The step engine under parallel requests. On PostgreSQL (TEST_DB=postgres) the requests really
 * run at once on several connections; every step must give exactly one 2xx and 409s, one audit
 * event, and store exactly what it acknowledged.
 */
describe('the step engine under parallel saves', () => {
  let t: TestApp;
  let salesRange: number;
  beforeAll(async () => {
    t = await createTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '0' });
    await t.app.db.execute(sql`insert into catalog_neighborhoods (municipality_id, code, name, search_text, name_key)
      select m.id, 'test-engine', 'Sector de Prueba', ' sector de prueba | santo domingo de guzman | distrito nacional ', 'sector de prueba'
      from catalog_municipalities m join catalog_states s on s.id = m.state_id where s.country = 'do' and s.code = '01' and m.code = '01'`);
    salesRange = (await t.app.inject({ method: 'GET', url: '/api/v1/sales-ranges' })).json().data.ranges[3].id;
  });
  afterAll(() => t.close());

  const saved = async (userId: string, transition: string) => {
    const rows = await t.app.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.applicationId, userId),
          eq(auditEvents.type, 'step.saved'),
          sql`${auditEvents.payload}->>'transition' = ${transition}`,
        ),
      );
    return rows.length;
  };
  const post = (user: { id: string; phone: string }, path: string, payload: object, method: 'POST' | 'PUT' = 'POST') =>
    shopkeeperCall(t.app, user, method, path, payload);
  const row = async (id: string) => (await t.app.db.select().from(users).where(eq(users.id, id)))[0]!;

  it('registration: one phone, 20 different people at once → one 201, the rest 409, the acknowledged name stored', async () => {
    const phone = createPhone();
    const token = await phoneToken(t.app, phone);
    const names = Array.from(
      { length: PARALLEL },
      (_, i) => `Persona ${String.fromCharCode(65 + i)}${String.fromCharCode(97 + i)}`,
    );
    const responses = await Promise.all(
      names.map((name) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v2/users',
          headers: { authorization: `Bearer ${token}` },
          payload: {
            account_type_id: 'SK',
            name,
            lastname: 'Peña',
            dob: '1985-02-28',
            length_of_residency_in_years: 4,
            marital_status: 'MARRIED',
            phone_number: phone,
            sales_identifier: '',
          },
        }),
      ),
    );
    expect(statuses(responses)).toEqual([201, ...Array(PARALLEL - 1).fill(409)]);
    const winner = responses.find((res) => res.statusCode === 201)!.json().data;
    expect(winner.path).toBe(`/${phone}/${winner.user_id}/additional-data`);
    expect((await row(winner.user_id)).name).toBe(names[responses.findIndex((res) => res.statusCode === 201)]);
    const registered = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, winner.user_id), eq(auditEvents.type, 'user.registered')));
    expect(registered).toHaveLength(1);
  });

  it('tax id: 20 different cédulas for one application → one 200 (the one stored), 19 × 409, one audit event', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'TAX_ACCOUNT' });
    await t.app.db.update(users).set({ taxIdHash: null, taxIdEncrypted: null }).where(eq(users.id, user.id));
    const ids = Array.from({ length: PARALLEL }, () => cedula(randomTen()));
    const responses = await Promise.all(ids.map((id) => post(user, '/tax_info', { tax_payer_id: id })));
    expect(statuses(responses)).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const acknowledged = ids[responses.findIndex((res) => res.statusCode === 200)]!;
    expect((await personCipher(t.app, t.app.db, user.id)).decrypt((await row(user.id)).taxIdEncrypted!)).toBe(
      acknowledged,
    );
    expect(responses.find((res) => res.statusCode === 409)!.json().current).toMatchObject({
      next_step: 'BUSINESS_ADDRESS',
      path: `/${user.phone}/${user.id}/search-address`,
    });
    expect(await saved(user.id, 'tax-id')).toBe(1);
  });

  it('tax id: one cédula sent by 20 applications at once → one 200 and 19 × 422, never a 5xx', async () => {
    const taken = cedula(randomTen());
    const applicants = await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'TAX_ACCOUNT' });
        await t.app.db.update(users).set({ taxIdHash: null, taxIdEncrypted: null }).where(eq(users.id, user.id));
        return user;
      }),
    );
    const responses = await Promise.all(applicants.map((user) => post(user, '/tax_info', { tax_payer_id: taken })));
    expect(statuses(responses)).toEqual([200, ...Array(PARALLEL - 1).fill(422)]);
    for (const res of responses.filter((r) => r.statusCode === 422)) expect(res.json().code).toBe('TAX_ID_IN_USE');
    const moved = await Promise.all(applicants.map((user) => row(user.id)));
    expect(moved.filter((u) => u.nextStep === 'BUSINESS_ADDRESS')).toHaveLength(1);
  });

  it('address: 20 saves at once → one 200 whose number is stored, 19 × 409, one audit event', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'BUSINESS_ADDRESS' });
    await t.app.db.delete(businessAddresses).where(eq(businessAddresses.userId, user.id));
    const address = (n: number) => ({
      zip_code: '00000',
      state: 'Distrito Nacional',
      city: 'Santo Domingo de Guzmán',
      neighborhood: 'Sector de Prueba',
      street_name: 'Calle Primera',
      street_number: String(n + 1),
      apartment_number: '',
    });
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, n) => post(user, '/businesses/address', address(n))),
    );
    expect(statuses(responses)).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const [stored] = await t.app.db.select().from(businessAddresses).where(eq(businessAddresses.userId, user.id));
    expect(stored!.streetNumber).toBe(String(responses.findIndex((res) => res.statusCode === 200) + 1));
    expect(await saved(user.id, 'address')).toBe(1);
  });

  it('business: 20 saves at once → one 200 whose name is stored, 19 × 409, one audit event', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'ABOUT_STORE' });
    await t.app.db.delete(businesses).where(eq(businesses.userId, user.id));
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, n) =>
        post(user, '/businesses', {
          name: `Colmado Número ${n + 1}`,
          business_type: 'Colmado',
          sales_average_range_id: salesRange,
          business_age: 3,
        }),
      ),
    );
    expect(statuses(responses)).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const [stored] = await t.app.db.select().from(businesses).where(eq(businesses.userId, user.id));
    expect(stored!.name).toBe(`Colmado Número ${responses.findIndex((res) => res.statusCode === 200) + 1}`);
    expect(await saved(user.id, 'business')).toBe(1);
  });

  it('PIN: 20 sends at once → one 200 and one SMS; 20 confirmations at once → one 200, 19 × 409, one consent', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const sends = await Promise.all(Array.from({ length: PARALLEL }, () => post(user, '/nip', {})));
    // A send that arrives once the first one moved the application is a resend: 429 until the resend interval.
    expect(statuses(sends).filter((status) => status === 200)).toHaveLength(1);
    expect(statuses(sends).every((status) => status === 200 || status === 409 || status === 429)).toBe(true);
    const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` })).json()
      .messages;
    expect(outbox).toHaveLength(1);
    const pin = sends.find((res) => res.statusCode === 200)!.json().data.default_nip;
    const confirms = await Promise.all(Array.from({ length: PARALLEL }, () => post(user, '/nip', { nip: pin }, 'PUT')));
    expect(statuses(confirms).filter((status) => status !== 409)).toHaveLength(1);
    expect(statuses(confirms).every((status) => status < 500)).toBe(true);
    const consents = await t.app.db.execute(
      sql`select count(*)::int as n from bureau_consents where user_id = ${user.id}`,
    );
    expect(JSON.stringify(consents)).toContain('"n":1');
    const given = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, user.id), eq(auditEvents.type, 'consent.given')));
    expect(given).toHaveLength(1);
  });

  it('password: 20 different passwords at once → one 200 whose password is stored, 19 × 409', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'PASSWORD' });
    const passwords = Array.from({ length: PARALLEL }, (_, n) => String(583920 + n * 7));
    const responses = await Promise.all(
      passwords.map((password) => post(user, '/password', { password, password_confirmation: password }, 'PUT')),
    );
    expect(statuses(responses)).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const acknowledged = passwords[responses.findIndex((res) => res.statusCode === 200)]!;
    expect(await verifyPassword(acknowledged, (await row(user.id)).passwordHash!)).toBe(true);
    expect(await saved(user.id, 'password')).toBe(1);
  });

  it('a claimed step refuses a second claim at once (no second hash) until it is released or lapses', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'PASSWORD' });
    const engine = engineOf(t.app);
    const claim = await claimStep(engine, user.id, 'password');
    await expect(claimStep(engine, user.id, 'password')).rejects.toMatchObject({
      statusCode: 409,
      code: 'STEP_IN_PROGRESS',
    });
    // Without the claim the move is refused too.
    await expect(
      moveApplication(engine, { userId: user.id, transition: 'password', actor: 'test', claim: crypto.randomUUID() }),
    ).rejects.toMatchObject({ statusCode: 409 });
    await releaseClaim(engine, user.id, claim);
    const again = await claimStep(engine, user.id, 'password', 0);
    // A lapsed claim (0 s) can be taken over.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await claimStep(engine, user.id, 'password')).not.toBe(again);
  });

  it('the database refuses a step or status the domain does not know', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'PASSWORD' });
    // The column's type refuses them too (`$type` in db/schema.ts): planted past it on purpose.
    const unknownStep = 'PASWORD' as NextStep;
    const unknownStatus = 'APPROVED' as ApplicationStatus;
    await expect(t.app.db.update(users).set({ nextStep: unknownStep }).where(eq(users.id, user.id))).rejects.toThrow();
    await expect(t.app.db.update(users).set({ status: unknownStatus }).where(eq(users.id, user.id))).rejects.toThrow();
  });
});
