import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cedulaCheckDigit, generateRfc } from '@provee/domain';
import { defaultPolicy } from '../policies/index.js';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { verifyAuditChain } from '../audit/index.js';
import { personCipher } from '../privacy/index.js';
import { createPhone, phoneToken } from '../../test/phone.js';
import { CATALOGUE_ADDRESS, registrationData } from '../../test/registration.js';
import { createTestApp, manualClock, useTestApp, withTestApp } from '../../test/test-app.js';

/** A valid cédula, different every call. */
function createCedula(): string {
  const ten = String(Math.floor(Math.random() * 1e10)).padStart(10, '0');
  return `${ten.slice(0, 3)}-${ten.slice(3)}-${cedulaCheckDigit(ten)}`;
}

/** The field messages of a 400 answer: field → message. */
const messagesByField = (res: { json: () => { issues: { field: string; message: string }[] } }) =>
  Object.fromEntries(res.json().issues.map((issue) => [issue.field, issue.message]));

/** Rows of a raw query, from PGlite ({ rows }) or postgres.js (an array). */
const rowsOf = (result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];

describe('shopkeeper registration', () => {
  const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
  const t = useTestApp({}, undefined, { clock });
  let salesRangeIds: number[];
  beforeAll(async () => {
    // Mata Hambre (Distrito Nacional) and Los Cartones (Azua) are in the catalogue a fresh start has.
    salesRangeIds = (await t.app.inject({ method: 'GET', url: '/api/v1/sales-ranges' }))
      .json()
      .data.ranges.map((range: { id: number }) => range.id);
  });

  const register = async (overrides: Record<string, unknown> = {}) => {
    const phone = createPhone();
    const token = await phoneToken(t.app, phone);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${token}` },
      payload: registrationData(phone, overrides),
    });
    return { phone, phoneTokenValue: token, res };
  };
  const registered = async () => {
    const { phone, res } = await register();
    expect(res.statusCode).toBe(201);
    const { user_id: userId, authentication } = res.json().data;
    const auth = { authorization: `Bearer ${authentication.access_token}` };
    return { phone, userId: userId as string, auth };
  };
  const post = (url: string, auth: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: auth, payload });
  const postAddress = (userId: string, auth: Record<string, string>, payload: object) =>
    post(`/api/v1/users/${userId}/SK/businesses/address`, auth, payload);

  it('step 1 creates the application, answers a user token, next step TAX_ACCOUNT', async () => {
    const { phone, userId, auth } = await registered();
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/users/${userId}/SK`, headers: auth });
    expect(detail.json().data).toMatchObject({
      user_id: userId,
      next_step: 'TAX_ACCOUNT',
      status: 'IN_PROGRESS',
      phone_number: phone,
    });
    expect(await verifyAuditChain(t.app.db, userId)).toEqual({ valid: true, events: 1 });
  });

  it('stores the birth date encrypted, never in clear', async () => {
    const { userId } = await registered();
    const rows = await t.app.db.execute(sql`select * from users where id = ${userId}`);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('1985-02-28');
    // Sealed with the applicant's own data key (decision 032), not the application's.
    expect(text).toContain('v2.');
    const [row] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect((await personCipher(t.app, t.app.db, userId)).decrypt(row!.dobEncrypted!)).toBe('1985-02-28');
    expect(() => t.app.cipher.decrypt(row!.dobEncrypted!)).toThrow();
  });

  it('re-validates step 1 on the server with the SPEC messages under the fields', async () => {
    const { res } = await register({
      name: 'Ju4n',
      lastname: '',
      maternal_lastname: 'N.',
      marital_status: 'OTHER',
      length_of_residency_in_years: 5,
      dob: '2001-02-29',
    });
    expect(res.statusCode).toBe(400);
    expect(messagesByField(res)).toEqual({
      'body.name': '* El formato del nombre es inválido, solo se aceptan letras y espacios',
      'body.lastname': '* Ingresa el apellido paterno !',
      'body.maternal_lastname': '* El formato del apellido materno es inválido, solo se aceptan letras.',
      'body.marital_status': '* Selecciona su estado civil !',
      'body.length_of_residency_in_years': '* Selecciona el tiempo viviendo ahí !',
      'body.dob': '* La fecha de nacimiento no existe, revísala.',
    });
  });

  it('age is checked on the exact date: 18 tomorrow is refused (422), 18 today is accepted', async () => {
    // The clock says 21 Nov 2026 in Santo Domingo.
    const young = await register({ dob: '2008-11-22' });
    expect(young.res.statusCode).toBe(422);
    expect(young.res.json().code).toBe('NOT_ELIGIBLE_AGE');
    // The person's reason, not the business one (issue 8).
    expect(young.res.json().readable_message).toBe('Debes tener al menos 18 años para solicitar el crédito.');
    const ok = await register({ dob: '2008-11-21' });
    expect(ok.res.statusCode).toBe(201);
  });

  it('409 when the phone is already registered; 403 with another phone’s token', async () => {
    const { phone, phoneTokenValue } = await register();
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${phoneTokenValue}` },
      payload: registrationData(phone),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('USER_EXISTS');
    // Where the existing application stands, so the screen goes there without another request.
    expect(again.json().current).toMatchObject({
      next_step: 'TAX_ACCOUNT',
      path: expect.stringMatching(/\/additional-data$/),
    });
    const intruder = await phoneToken(t.app, createPhone());
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${intruder}` },
      payload: registrationData(createPhone()),
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it('step 2: the cédula with its check digit; stored encrypted with a lookup hash; one application per cédula', async () => {
    const { userId, auth } = await registered();
    const cedula = createCedula();
    const wrongDigit = cedula.slice(0, -1) + ((Number(cedula.at(-1)) + 1) % 10);
    const bad = await post(`/api/v1/users/${userId}/SK/tax_info`, auth, { tax_payer_id: wrongDigit });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ field: 'body.tax_payer_id', message: '* La cédula no es válida, revísala.' }]);
    const short = await post(`/api/v1/users/${userId}/SK/tax_info`, auth, { tax_payer_id: '001-12' });
    expect(short.json().issues[0].message).toBe('* La cédula debe tener 13 caracteres.');
    // A letter is named, not dropped (issue 27): dropped, the rest would be another person's number.
    const letter = await post(`/api/v1/users/${userId}/SK/tax_info`, auth, {
      tax_payer_id: `${cedula.slice(0, 5)}a${cedula.slice(5)}`,
    });
    expect(letter.json().issues).toEqual([
      { field: 'body.tax_payer_id', message: '* La cédula o RNC solo lleva números.' },
    ]);
    const empty = await post(`/api/v1/users/${userId}/SK/tax_info`, auth, { tax_payer_id: ' - ' });
    expect(empty.json().issues[0].message).toBe('* Ingresa la Cédula / RNC !');

    const ok = await post(`/api/v1/users/${userId}/SK/tax_info`, auth, { tax_payer_id: cedula.replace(/-/g, '') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.next_step).toBe('BUSINESS_ADDRESS');
    const rows = JSON.stringify(await t.app.db.execute(sql`select * from users where id = ${userId}`));
    expect(rows).not.toContain(cedula.replace(/-/g, ''));

    const other = await registered();
    const taken = await post(`/api/v1/users/${other.userId}/SK/tax_info`, other.auth, { tax_payer_id: cedula });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().code).toBe('TAX_ID_IN_USE');
    expect(taken.json().readable_message).toBe('Ya existe una solicitud con esta cédula. Contacta a soporte.');
  });

  it('a step that is not the current one is a 409; another user’s id a 403', async () => {
    const { userId, auth } = await registered();
    const early = await postAddress(userId, auth, CATALOGUE_ADDRESS);
    expect(early.statusCode).toBe(409);
    // Where the application stands, so the app routes without reloading the user.
    expect(early.json()).toMatchObject({
      code: 'STEP_NOT_CURRENT',
      current: { user_id: userId, next_step: 'TAX_ACCOUNT', status: 'IN_PROGRESS' },
    });
    const other = await registered();
    expect(
      (await post(`/api/v1/users/${other.userId}/SK/tax_info`, auth, { tax_payer_id: createCedula() })).statusCode,
    ).toBe(403);
  });

  const atAddress = async () => {
    const user = await registered();
    expect(
      (await post(`/api/v1/users/${user.userId}/SK/tax_info`, user.auth, { tax_payer_id: createCedula() })).statusCode,
    ).toBe(200);
    return user;
  };

  it('step 4: the address messages of SPEC §5 (Provincia and Sector in do), and the street may not contain &', async () => {
    const { userId, auth } = await atAddress();
    const res = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      state: '',
      city: '',
      neighborhood: '',
      street_name: 'Calle 1 & 2',
      street_number: '',
    });
    const issues = messagesByField(res);
    expect(res.statusCode).toBe(400);
    expect(issues).toEqual({
      'body.state': '* Ingresa la provincia !',
      'body.city': '* Selecciona el municipio !',
      'body.neighborhood': '* Selecciona el sector !',
      'body.street_name': '* La calle no puede contener el carácter &.',
      'body.street_number': '* Ingresa el número exterior !',
    });
    const unknown = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      neighborhood: 'No Existe',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().issues[0].field).toBe('body.neighborhood');
  });

  it('step 4 and 5: emoji and control characters are refused with a Spanish message (400)', async () => {
    const { userId, auth } = await atAddress();
    const res = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      street_name: 'Calle 🏠',
      street_number: '5\u200b',
      apartment_number: '\u202eB',
    });
    expect(res.statusCode).toBe(400);
    expect(messagesByField(res)).toEqual({
      'body.street_name': '* No uses emojis ni caracteres especiales.',
      'body.street_number': '* No uses emojis ni caracteres especiales.',
      'body.apartment_number': '* No uses emojis ni caracteres especiales.',
    });
    // A control character (NUL) is refused by every route before its own rules, with the same message.
    const nul = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      street_number: '5\u0000',
    });
    expect(nul.json().issues).toEqual([
      { field: 'body.street_number', message: '* No uses emojis ni caracteres especiales.' },
    ]);
    expect((await postAddress(userId, auth, CATALOGUE_ADDRESS)).statusCode).toBe(200);
    const emoji = await post(`/api/v1/users/${userId}/SK/businesses`, auth, { ...business(), name: 'Colmado 🛒' });
    expect(emoji.statusCode).toBe(400);
    expect(emoji.json().issues).toEqual([
      { field: 'body.name', message: '* No uses emojis ni caracteres especiales.' },
    ]);
    const sign = await post(`/api/v1/users/${userId}/SK/businesses`, auth, {
      ...business(),
      name: 'Colmado “El Güero” #2 & Hijos',
    });
    expect(sign.statusCode).toBe(200);
  });

  it('step 4: outside the served municipalities → 412; inside → next step ABOUT_STORE', async () => {
    const { userId, auth } = await atAddress();
    const outside = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      state: 'Azua',
      city: 'Azua',
      neighborhood: 'Los Cartones',
    });
    expect(outside.statusCode).toBe(412);
    expect(outside.json().code).toBe('OUT_OF_SERVICE_AREA');
    const inside = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      state: 'distrito nacional',
      neighborhood: 'MATA HAMBRE',
    });
    expect(inside.statusCode).toBe(200);
    expect(inside.json().data.next_step).toBe('ABOUT_STORE');
  });

  it("step 4, 'Mi sector no aparece': a typed sector is stored flagged; the street's rules and the served area still apply", async () => {
    const typed = { ...CATALOGUE_ADDRESS, neighborhood: '  Villa  Esperanza del Norte ', neighborhood_typed: true };
    const { userId, auth } = await atAddress();
    // Without the flag, a name that is not in the catalogue is refused as before.
    expect((await postAddress(userId, auth, { ...typed, neighborhood_typed: undefined })).statusCode).toBe(400);
    const issue = async (payload: object) => {
      const res = await postAddress(userId, auth, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().readable_message).toMatch(/\S/);
      return messagesByField(res);
    };
    expect(await issue({ ...typed, neighborhood: '   ' })).toEqual({ 'body.neighborhood': '* Ingresa el sector !' });
    expect(await issue({ ...typed, neighborhood: 'Los Pinos & Co' })).toEqual({
      'body.neighborhood': '* El sector no puede contener el carácter &.',
    });
    expect(await issue({ ...typed, neighborhood: 'x'.repeat(81) })).toEqual({
      'body.neighborhood': '* Máximo 80 caracteres.',
    });
    expect(await issue({ ...typed, neighborhood_typed: 'yes' })).toHaveProperty(['body.neighborhood_typed']);
    // The province and municipality must still be the catalogue's.
    expect(await issue({ ...typed, city: 'Ciudad Inventada' })).toEqual({
      'body.city': 'No encontramos este municipio, elígelo de la lista.',
    });
    // Outside the served municipalities: 412, typed or not.
    const outside = await postAddress(userId, auth, {
      ...typed,
      state: 'Azua',
      city: 'Azua',
    });
    expect(outside.statusCode).toBe(412);

    const ok = await postAddress(userId, auth, typed);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.next_step).toBe('ABOUT_STORE');
    const [row] = await t.app.db
      .execute(sql`select neighborhood, neighborhood_typed, city from business_addresses where user_id = ${userId}`)
      .then(rowsOf);
    expect(row).toEqual({
      neighborhood: 'Villa Esperanza del Norte',
      neighborhood_typed: true,
      city: 'Santo Domingo de Guzmán',
    });
  });

  it('a typed sector that is in the catalogue after all is stored as the catalogue names it, not flagged', async () => {
    const { userId, auth } = await atAddress();
    const res = await postAddress(userId, auth, {
      ...CATALOGUE_ADDRESS,
      neighborhood: 'mata hambre',
      neighborhood_typed: true,
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.app.db
      .execute(sql`select neighborhood, neighborhood_typed from business_addresses where user_id = ${userId}`)
      .then(rowsOf);
    expect(row).toEqual({ neighborhood: 'Mata Hambre', neighborhood_typed: false });
  });

  const atBusiness = async () => {
    const user = await atAddress();
    expect((await postAddress(user.userId, user.auth, CATALOGUE_ADDRESS)).statusCode).toBe(200);
    return user;
  };
  const business = () => ({
    name: 'Colmado La Esquina',
    business_type: 'Colmado',
    business_type_other: '',
    sales_average_range_id: salesRangeIds[2]!,
    business_age: 3,
  });

  it('step 5: business rules, Otros needs a description, then next step ACCOUNT_NIP', async () => {
    const { userId, auth } = await atBusiness();
    const bad = await post(`/api/v1/users/${userId}/SK/businesses`, auth, {
      name: '',
      business_type: 'Otros',
      business_type_other: '',
      sales_average_range_id: 999_999,
      business_age: 7,
    });
    expect(messagesByField(bad)).toEqual({
      'body.name': '* Ingresa el nombre de tu negocio !',
      'body.business_type_other': '* Escribe a qué se dedica tu negocio !',
      'body.sales_average_range_id': '* Selecciona tus ventas semanales !',
      'body.business_age': '* Selecciona el tiempo con tu negocio !',
    });
    const ok = await post(`/api/v1/users/${userId}/SK/businesses`, auth, {
      ...business(),
      business_type: 'Otros',
      business_type_other: 'Venta de frutas',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ next_step: 'ACCOUNT_NIP', status: 'IN_PROGRESS' });
    expect(await verifyAuditChain(t.app.db, userId)).toEqual({ valid: true, events: 4 });
  });
});

/** A policy file with some eligibility rules changed (CREDIT_POLICY_FILE). */
function policyFile(eligibility: Record<string, number>): string {
  const file = join(tmpdir(), `policy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      ...defaultPolicy,
      version: 'test',
      eligibility: { ...defaultPolicy.eligibility, ...eligibility },
    }),
  );
  return file;
}

describe('credit policy refusals (configurable)', () => {
  it('min_age 21 refuses a 20-year-old with 422', async () => {
    const t = await createTestApp({ CREDIT_POLICY_FILE: policyFile({ min_age: 21 }) }, undefined, {
      clock: manualClock(new Date('2026-11-21T15:00:00Z')),
    });
    try {
      const phone = createPhone();
      const token = await phoneToken(t.app, phone);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { authorization: `Bearer ${token}` },
        payload: registrationData(phone, { dob: '2006-01-01' }),
      });
      expect(res.statusCode).toBe(422);
    } finally {
      await t.close();
    }
  });

  it.each([
    ['min_business_age_years', 2, { business_age: 1 }, 'NOT_ELIGIBLE_BUSINESS_AGE'],
    ['min_sales_range', 3, { rangeIndex: 1 }, 'NOT_ELIGIBLE_SALES'],
  ])(
    '%s %i refuses the business with 422 and the application is rejected for good',
    async (name, value, change, code) => {
      await withTestApp({ CREDIT_POLICY_FILE: policyFile({ [name]: value }) }, async (t) => {
        await t.app.db
          .execute(sql`insert into catalog_neighborhoods (municipality_id, code, name, search_text, name_key)
        select m.id, 'test-mata-hambre', 'Mata Hambre', ' mata hambre ', 'mata hambre'
        from catalog_municipalities m join catalog_states s on s.id = m.state_id where s.country = 'do' and s.code = '01'`);
        const phone = createPhone();
        const token = await phoneToken(t.app, phone);
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/v2/users',
          headers: { authorization: `Bearer ${token}` },
          payload: registrationData(phone),
        });
        const { user_id: userId, authentication } = created.json().data;
        const auth = { authorization: `Bearer ${authentication.access_token}` };
        const ten = '0010000001';
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/users/${userId}/SK/tax_info`,
          headers: auth,
          payload: { tax_payer_id: `${ten}${cedulaCheckDigit(ten)}` },
        });
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/users/${userId}/SK/businesses/address`,
          headers: auth,
          payload: CATALOGUE_ADDRESS,
        });
        const ranges = (await t.app.inject({ method: 'GET', url: '/api/v1/sales-ranges' })).json().data.ranges;
        const rangeIndex = 'rangeIndex' in change ? change.rangeIndex : 2;
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/users/${userId}/SK/businesses`,
          headers: auth,
          payload: {
            name: 'Colmado',
            business_type: 'Colmado',
            business_type_other: '',
            sales_average_range_id: ranges[rangeIndex].id,
            business_age: 'business_age' in change ? change.business_age : 3,
          },
        });
        expect(res.statusCode).toBe(422);
        expect(res.json().code).toBe(code);
        const detail = (await t.app.inject({ method: 'GET', url: `/api/v1/users/${userId}/SK`, headers: auth })).json()
          .data;
        expect(detail).toMatchObject({ next_step: 'ACCOUNT_NIP', status: 'REJECTED' });
      });
    },
  );
});

describe('Mexico: RFC', () => {
  it('accepts the generated RFC for the person and refuses one for another birth date', async () => {
    const t = await createTestApp({ COUNTRY: 'mx' }, undefined, {
      clock: manualClock(new Date('2026-11-21T15:00:00Z')),
    });
    try {
      const phone = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const token = await phoneToken(t.app, phone);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { authorization: `Bearer ${token}` },
        payload: registrationData(phone, {
          name: 'Juan',
          lastname: 'Barrios',
          maternal_lastname: 'Fernández',
          dob: '1970-12-13',
        }),
      });
      expect(created.statusCode).toBe(201);
      // The registration's answer carries the suggestion: the RFC screen needs no second request.
      expect(created.json().data.tax_id_suggestion).toBe('BAFJ701213SBA');
      const { user_id: userId, authentication } = created.json().data;
      const auth = { authorization: `Bearer ${authentication.access_token}` };
      const detail = await t.app.inject({ method: 'GET', url: `/api/v1/users/${userId}/SK`, headers: auth });
      expect(detail.json().data.tax_id_suggestion).toBe('BAFJ701213SBA');
      const otherDate = generateRfc({
        name: 'Juan',
        lastname: 'Barrios',
        maternalLastname: 'Fernández',
        dob: '1971-12-13',
      });
      const wrong = await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${userId}/SK/tax_info`,
        headers: auth,
        payload: { tax_payer_id: otherDate },
      });
      expect(wrong.json().issues[0].message).toBe('* El RFC no corresponde a tu fecha de nacimiento.');
      const ok = await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${userId}/SK/tax_info`,
        headers: auth,
        payload: { tax_payer_id: 'bafj701213sba' },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
