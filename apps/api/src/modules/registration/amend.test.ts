import { cedulaCheckDigit, generateRfc, MAX_AMENDMENTS } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, businessAddresses, users } from '../../db/schema.js';
import { createPhone } from '../../test/phone.js';
import { CATALOGUE_ADDRESS, PERSONAL_DATA, registerProvenPhone } from '../../test/registration.js';
import { createTestApp, useTestApp } from '../../test/test-app.js';
import { verifyAuditChain } from '../audit/index.js';

/**
 * Going back (issue 27, docs/decisions/025): what the registration steps saved, read back for the
 * screens, and the corrections the step engine allows before the business step (never after).
 */
const cedula = () => {
  const ten = `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  return `${ten.slice(0, 3)}-${ten.slice(3)}-${cedulaCheckDigit(ten)}`;
};

describe('saved registration steps and their corrections', () => {
  const t = useTestApp();
  let salesRange: number;
  beforeAll(async () => {
    salesRange = (await t.app.inject({ method: 'GET', url: '/api/v1/sales-ranges' })).json().data.ranges[2].id;
  });

  type Who = { userId: string; auth: { authorization: string } };
  const registered = async (): Promise<Who> => {
    const phone = createPhone();
    const res = await registerProvenPhone(t.app, phone, {
      ...PERSONAL_DATA,
      account_type_id: 'SK',
      phone_number: phone,
      sales_identifier: '',
    });
    expect(res.statusCode).toBe(201);
    const { user_id: userId, authentication } = res.json().data;
    return { userId, auth: { authorization: `Bearer ${authentication.access_token}` } };
  };
  const call = (who: Who, method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/users/${who.userId}/SK${path}`, headers: who.auth, payload });
  const business = { name: 'Colmado La Esquina', business_type: 'Colmado', business_age: 3 };
  const through = async (step: 'tax-id' | 'address' | 'business') => {
    const who = await registered();
    const taxId = cedula();
    expect((await call(who, 'POST', '/tax_info', { tax_payer_id: taxId })).statusCode).toBe(200);
    if (step !== 'tax-id')
      expect((await call(who, 'POST', '/businesses/address', CATALOGUE_ADDRESS)).statusCode).toBe(200);
    if (step === 'business')
      expect(
        (await call(who, 'POST', '/businesses', { ...business, sales_average_range_id: salesRange })).statusCode,
      ).toBe(200);
    return { ...who, taxId };
  };
  const amendedEvents = async (userId: string) =>
    t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, userId), eq(auditEvents.type, 'step.amended')));

  it('reads back what each step saved, as the screens show it, and what may still be corrected', async () => {
    const fresh = await registered();
    const first = (await call(fresh, 'GET', '/registration')).json().data;
    expect(first).toMatchObject({
      next_step: 'TAX_ACCOUNT',
      personal: PERSONAL_DATA,
      tax_payer_id: null,
      address: null,
      business: null,
      editable: { personal: true, tax_id: false, address: false, business: false },
    });

    const who = await through('address');
    const saved = (await call(who, 'GET', '/registration')).json().data;
    expect(saved.tax_payer_id).toBe(who.taxId);
    expect(saved.address).toMatchObject({ ...CATALOGUE_ADDRESS, neighborhood_typed: false });
    expect(saved.address.state_id).toEqual(expect.any(Number));
    expect(saved.address.city_id).toEqual(expect.any(Number));
    expect(saved.address.neighborhood_id).toEqual(expect.any(Number));
    expect(saved.editable).toEqual({ personal: true, tax_id: true, address: true, business: false });
  });

  it("only the application's owner reads it", async () => {
    const a = await registered();
    const b = await registered();
    expect((await call({ userId: a.userId, auth: b.auth }, 'GET', '/registration')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/${a.userId}/SK/registration` })).statusCode).toBe(
      401,
    );
  });

  it('corrects the personal data where the application stands, with one audit event, the chain intact', async () => {
    const who = await registered();
    const res = await call(who, 'PUT', '/personal-data', { ...PERSONAL_DATA, name: 'María Josefa', dob: '1984-03-01' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ user_id: who.userId, next_step: 'TAX_ACCOUNT', status: 'IN_PROGRESS' });
    const saved = (await call(who, 'GET', '/registration')).json().data;
    expect(saved.personal).toMatchObject({ name: 'María Josefa', dob: '1984-03-01' });
    const events = await amendedEvents(who.userId);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ amendment: 'personal', step: 'TAX_ACCOUNT' });
    expect(await verifyAuditChain(t.app.db, who.userId)).toEqual({ valid: true, events: 2 });
  });

  it('a correction follows the first save’s rules: field messages (400), the policy’s age (422), nothing changed', async () => {
    const who = await registered();
    const bad = await call(who, 'PUT', '/personal-data', { ...PERSONAL_DATA, name: 'Ju4n' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([
      { field: 'body.name', message: '* El formato del nombre es inválido, solo se aceptan letras y espacios' },
    ]);
    const old = await call(who, 'PUT', '/personal-data', { ...PERSONAL_DATA, dob: '1920-01-01' });
    expect(old.statusCode).toBe(422);
    expect(old.json().code).toBe('NOT_ELIGIBLE_AGE');
    expect((await call(who, 'GET', '/registration')).json().data.personal).toEqual(PERSONAL_DATA);
    expect(await amendedEvents(who.userId)).toHaveLength(0);
  });

  it('corrects the tax id; one application per person still holds', async () => {
    const who = await through('address');
    const other = await through('tax-id');
    const corrected = cedula();
    const res = await call(who, 'PUT', '/tax_info', { tax_payer_id: corrected });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.next_step).toBe('ABOUT_STORE');
    expect((await call(who, 'GET', '/registration')).json().data.tax_payer_id).toBe(corrected);
    // The same tax id again is no conflict with itself.
    expect((await call(who, 'PUT', '/tax_info', { tax_payer_id: corrected })).statusCode).toBe(200);
    const taken = await call(who, 'PUT', '/tax_info', { tax_payer_id: other.taxId });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().code).toBe('TAX_ID_IN_USE');
    const invalid = await call(who, 'PUT', '/tax_info', { tax_payer_id: '001-0000000-0' });
    expect(invalid.statusCode).toBe(400);
    expect((await call(who, 'GET', '/registration')).json().data.tax_payer_id).toBe(corrected);
    // The tax id given up is named in the chain (its lookup hash): held, then released.
    const released = (await amendedEvents(who.userId)).map((event) => event.payload.previous_tax_id_hash);
    expect(released).toEqual([t.app.cipher.lookupHash(`do:${who.taxId.replace(/-/g, '')}`), undefined]);
  });

  it(`corrections are counted: after ${MAX_AMENDMENTS}, a clear 429 and nothing changed`, async () => {
    const who = await through('address');
    const name = (i: number) =>
      `María ${['Ana', 'Bea', 'Carla', 'Dora', 'Elsa', 'Flor', 'Gina', 'Hilda', 'Inés', 'Julia', 'Karla'][i]}`;
    for (let i = 0; i < MAX_AMENDMENTS; i++) {
      const res = await call(who, 'PUT', '/personal-data', { ...PERSONAL_DATA, name: name(i) });
      expect(res.statusCode, res.body).toBe(200);
    }
    const more = await call(who, 'PUT', '/personal-data', { ...PERSONAL_DATA, name: 'Otra Persona' });
    expect(more.statusCode).toBe(429);
    expect(more.json()).toMatchObject({
      code: 'TOO_MANY_CORRECTIONS',
      readable_message: 'Ya corregiste tus datos muchas veces. Si algo sigue mal, escríbenos por el chat de ayuda.',
    });
    expect((await call(who, 'GET', '/registration')).json().data.personal.name).toBe(name(MAX_AMENDMENTS - 1));
    expect(await amendedEvents(who.userId)).toHaveLength(MAX_AMENDMENTS);
  });

  it('corrects the address; outside the served area it is refused (412) and the saved one stays', async () => {
    const who = await through('address');
    const res = await call(who, 'PUT', '/businesses/address', { ...CATALOGUE_ADDRESS, street_number: '14' });
    expect(res.statusCode, res.body).toBe(200);
    const outside = await call(who, 'PUT', '/businesses/address', {
      ...CATALOGUE_ADDRESS,
      state: 'Azua',
      city: 'Azua',
      neighborhood: 'Los Cartones',
    });
    expect(outside.statusCode).toBe(412);
    const [row] = await t.app.db.select().from(businessAddresses).where(eq(businessAddresses.userId, who.userId));
    expect(row).toMatchObject({ streetNumber: '14', city: 'Santo Domingo de Guzmán' });
  });

  it('a step not saved yet is not corrected: it is saved by its own step (409 with where it stands)', async () => {
    const who = await registered();
    const early = await call(who, 'PUT', '/tax_info', { tax_payer_id: cedula() });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'STEP_NOT_EDITABLE',
      current: { next_step: 'TAX_ACCOUNT', path: expect.stringMatching(/\/additional-data$/) },
    });
    const [row] = await t.app.db.select().from(users).where(eq(users.id, who.userId));
    expect(row!.taxIdHash).toBeNull();
  });

  it('once the business is saved (the credit policy judged it), nothing is corrected: 409, nothing written', async () => {
    const who = await through('business');
    const before = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, who.userId));
    for (const [path, payload] of [
      ['/personal-data', { ...PERSONAL_DATA, name: 'Otra Persona' }],
      ['/tax_info', { tax_payer_id: cedula() }],
      ['/businesses/address', { ...CATALOGUE_ADDRESS, street_number: '99' }],
    ] as const) {
      const res = await call(who, 'PUT', path, payload);
      expect(res.statusCode, path).toBe(409);
      expect(res.json()).toMatchObject({ code: 'STEP_NOT_EDITABLE', current: { next_step: 'ACCOUNT_NIP' } });
    }
    const saved = (await call(who, 'GET', '/registration')).json().data;
    expect(saved).toMatchObject({
      personal: { name: 'María José' },
      tax_payer_id: who.taxId,
      address: { street_number: '12' },
      business: { name: 'Colmado La Esquina', business_age: 3, sales_average_range_id: salesRange },
      editable: { personal: false, tax_id: false, address: false, business: false },
    });
    expect(await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, who.userId))).toHaveLength(
      before.length,
    );
  });

  it('a correction racing the business save: either it lands before (and is audited) or it is refused', async () => {
    const who = await through('address');
    const numbers = Array.from({ length: 8 }, (_, i) => String(20 + i));
    const [saved, ...amends] = await Promise.all([
      call(who, 'POST', '/businesses', { ...business, sales_average_range_id: salesRange }),
      ...numbers.map((number) =>
        call(who, 'PUT', '/businesses/address', { ...CATALOGUE_ADDRESS, street_number: number }),
      ),
    ]);
    expect(saved!.statusCode).toBe(200);
    const accepted = numbers.filter((_, i) => amends[i]!.statusCode === 200);
    expect(amends.every((res) => res.statusCode === 200 || res.statusCode === 409)).toBe(true);
    expect(await amendedEvents(who.userId)).toHaveLength(accepted.length);
    const [row] = await t.app.db.select().from(businessAddresses).where(eq(businessAddresses.userId, who.userId));
    expect(accepted.length === 0 ? ['12'] : accepted).toContain(row!.streetNumber);
    expect(await verifyAuditChain(t.app.db, who.userId)).toMatchObject({ valid: true });
  });
});

describe('Mexico: the RFC and the birth date at once', () => {
  it('a birth date corrected while the RFC for the old one is saved: never both', async () => {
    const t = await createTestApp({ COUNTRY: 'mx' });
    const letters = () =>
      Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');
    const day = (from: number) =>
      `${from + Math.floor(Math.random() * 20)}-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}`;
    try {
      const outcomes = new Set<string>();
      for (let round = 0; round < 6; round++) {
        // Another person every round, born another day: an RFC is mostly initials and the birth
        // date, and one application per RFC holds (PostgreSQL's database outlives a run).
        const person = { name: 'Juan', lastname: `B${letters()}`, maternal_lastname: `F${letters()}` };
        const [born, corrected] = [day(1960), day(1980)];
        const personal = (dob: string) => ({
          ...person,
          dob,
          length_of_residency_in_years: 4,
          marital_status: 'MARRIED',
        });
        const rfc = (dob: string) =>
          generateRfc({
            name: person.name,
            lastname: person.lastname,
            maternalLastname: person.maternal_lastname,
            dob,
          });
        const phone = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
        const created = await registerProvenPhone(t.app, phone, {
          ...personal(born),
          account_type_id: 'SK',
          phone_number: phone,
          sales_identifier: '',
        });
        expect(created.statusCode, created.body).toBe(201);
        const { user_id: userId, authentication } = created.json().data;
        const headers = { authorization: `Bearer ${authentication.access_token}` };
        const url = (path: string) => `/api/v1/users/${userId}/SK${path}`;
        // Each is right against what it read; together they would disagree.
        const answers = await Promise.all([
          t.app.inject({ method: 'PUT', url: url('/personal-data'), headers, payload: personal(corrected) }),
          t.app.inject({ method: 'POST', url: url('/tax_info'), headers, payload: { tax_payer_id: rfc(born) } }),
        ]);
        outcomes.add(answers.map((res) => res.statusCode).join('/'));
        for (const res of answers) expect([200, 400], res.body).toContain(res.statusCode);
        const saved = (await t.app.inject({ method: 'GET', url: url('/registration'), headers })).json().data;
        if (saved.tax_payer_id)
          expect(saved.tax_payer_id.slice(4, 10)).toBe(saved.personal.dob.slice(2).replace(/-/g, ''));
      }
      console.log(`RFC and birth date at once (personal/tax id): ${[...outcomes].join(', ')}`);
    } finally {
      await t.close();
    }
  });
});
