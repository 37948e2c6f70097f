// "Mis datos" and "Solicitudes de privacidad" (issue 31): a request gets a folio and its legal
// deadline in business days, one open per kind; only its applicant and staff with `privacy` see it;
// every answer is in the audit chain, which still verifies after an erasure.
import { BUSINESS_MESSAGES, NAME_MESSAGES, toE164 } from '@provee/domain';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, businesses, privacyRequests, users } from '../../db/schema.js';
import { createApplication, createPng, userAuth } from '../../test/factories.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { staffSession } from '../../test/staff.js';
import { manualClock, useTestApp, type TestApp } from '../../test/test-app.js';
import type { App } from '../../types.js';
import { verifyAuditChain } from '../audit/index.js';
import { eraseApplication } from '../privacy/index.js';

type Person = { id: string; phone: string };

const fileRequest = (app: App, person: Person, body: object, as: Person = person) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/users/${person.id}/SK/privacy/requests`,
    headers: userAuth(app, as),
    payload: body,
  });

const mine = (app: App, person: Person, path: string, as: Person = person) =>
  app.inject({ method: 'GET', url: `/api/v1/users/${person.id}/SK/privacy/${path}`, headers: userAuth(app, as) });

const cancellation = { kind: 'cancellation', reason: 'Ya no quiero el crédito, borren mis datos.' };

async function staffCall(
  t: TestApp,
  role: 'analyst' | 'admin' | 'advisor',
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) {
  const { headers } = await staffSession(t.app, role);
  return t.app.inject({
    method,
    url: `/api/backoffice/privacy-requests${url}`,
    headers,
    ...(payload ? { payload } : {}),
  });
}

const eventTypes = async (app: App, applicationId: string) =>
  (
    await app.db
      .select({ type: auditEvents.type })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, applicationId))
  ).map((event) => event.type);

describe('privacy requests in the Dominican Republic', () => {
  // Saturday 21 November 2026: the term starts on Monday.
  const t = useTestApp({ RATE_LIMIT_PER_MINUTE: '100000', PRIVACY_HOLIDAYS: '2026-11-23' }, undefined, {
    clock: manualClock(new Date('2026-11-21T12:00:00Z')),
  });

  it('gets a folio and ten business days (weekends and the configured holidays skipped), one open per kind', async () => {
    const person = await createApplication(t.app);
    const filed = await fileRequest(t.app, person, cancellation);
    expect(filed.statusCode, filed.body).toBe(201);
    const request = filed.json().data;
    expect(request).toMatchObject({ kind: 'cancellation', state: 'RECEIVED', deadline: '2026-12-07', overdue: false });
    expect(request.folio).toMatch(/^ARCO-2026-\d{6}$/);

    const again = await fileRequest(t.app, person, { ...cancellation, reason: 'Otra vez: borren todo lo mío.' });
    expect(again.statusCode).toBe(409);
    expect(again.json().readable_message).toContain('Ya tienes una solicitud de este tipo en trámite');

    const rectification = await fileRequest(t.app, person, {
      kind: 'rectification',
      field: 'name',
      reason: 'Mi nombre está mal escrito.',
    });
    expect(rectification.statusCode).toBe(201);
    expect(rectification.json().data.folio).not.toBe(request.folio);

    const listed = await mine(t.app, person, 'requests');
    expect(
      listed
        .json()
        .data.items.map((item: { folio: string }) => item.folio)
        .sort(),
    ).toEqual([request.folio, rectification.json().data.folio].sort());
    expect(await eventTypes(t.app, person.id)).toEqual(expect.arrayContaining(['privacy.request_filed']));
  });

  it('at once: ten filings of one kind make one request, and four staff answers to it make one answer', async () => {
    const person = await createApplication(t.app);
    const filings = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fileRequest(t.app, person, { ...cancellation, reason: `Borren mis datos, intento ${i + 1}.` }),
      ),
    );
    expect(filings.map((filing) => filing.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    const stored = await t.app.db.select().from(privacyRequests).where(eq(privacyRequests.applicationId, person.id));
    expect(stored).toHaveLength(1);

    const legalReason = 'Art. 26 LFPDPPP: los datos son necesarios para cumplir una obligación legal.';
    const { headers } = await staffSession(t.app, 'analyst');
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        t.app.inject({
          method: 'POST',
          url: `/api/backoffice/privacy-requests/${stored[0]!.id}/refuse`,
          headers,
          payload: { legal_reason: legalReason },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const events = await eventTypes(t.app, person.id);
    expect(events.filter((type) => type === 'privacy.request_filed')).toHaveLength(1);
    expect(events.filter((type) => type === 'privacy.request_refused')).toHaveLength(1);
  });

  it('a bad request is a Spanish 400: no reason, a rectification without its field', async () => {
    const person = await createApplication(t.app);
    const short = await fileRequest(t.app, person, { kind: 'opposition', reason: 'no' });
    expect(short.statusCode).toBe(400);
    expect(JSON.stringify(short.json())).toContain('al menos 10 caracteres');
    const noField = await fileRequest(t.app, person, { kind: 'rectification', reason: 'Mi apellido está mal.' });
    expect(noField.statusCode).toBe(400);
    expect(JSON.stringify(noField.json())).toContain('Elige qué dato quieres corregir.');
  });

  it('another applicant can neither file for, read nor list someone else’s requests', async () => {
    const owner = await createApplication(t.app);
    const other = await createApplication(t.app);
    expect((await fileRequest(t.app, owner, cancellation)).statusCode).toBe(201);
    expect((await fileRequest(t.app, owner, cancellation, other)).statusCode).toBe(403);
    expect((await mine(t.app, owner, 'requests', other)).statusCode).toBe(403);
    expect((await mine(t.app, owner, 'data', other)).statusCode).toBe(403);
    expect((await mine(t.app, other, 'requests')).json().data.items).toEqual([]);
    const unsigned = await t.app.inject({ method: 'GET', url: `/api/v1/users/${owner.id}/SK/privacy/requests` });
    expect(unsigned.statusCode).toBe(401);
  });

  it('the applicant sees and downloads their data as JSON and as a PDF, each look audited', async () => {
    const person = await createApplication(t.app, { name: 'Begoña' });
    const json = await mine(t.app, person, 'data');
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.stringify(json.json().data)).toContain('Begoña');
    const pdf = await mine(t.app, person, 'data.pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await eventTypes(t.app, person.id)).filter((type) => type === 'privacy.data_viewed')).toHaveLength(2);
  });

  it('staff: an advisor is 403; an analyst sees the queue by deadline, the detail, and refuses with a legal reason', async () => {
    const person = await createApplication(t.app);
    const filed = (
      await fileRequest(t.app, person, { kind: 'opposition', reason: 'No quiero que usen mis datos.' })
    ).json().data;
    expect((await staffCall(t, 'advisor', 'GET', '')).statusCode).toBe(403);
    expect(
      (await staffCall(t, 'advisor', 'POST', `/${filed.id}/refuse`, { legal_reason: 'x'.repeat(20) })).statusCode,
    ).toBe(403);

    const queue = (await staffCall(t, 'analyst', 'GET', '')).json().data.items as { id: string; deadline: string }[];
    expect(queue.map((item) => item.id)).toContain(filed.id);
    expect(queue.map((item) => item.deadline)).toEqual([...queue.map((item) => item.deadline)].sort());

    const detail = await staffCall(t, 'analyst', 'GET', `/${filed.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data.request.folio).toBe(filed.folio);
    expect(detail.json().data.person).not.toBeNull();
    expect((await staffCall(t, 'analyst', 'GET', '/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    const tooShort = await staffCall(t, 'analyst', 'POST', `/${filed.id}/refuse`, { legal_reason: 'no' });
    expect(tooShort.statusCode).toBe(400);
    const legalReason = 'Art. 26 LFPDPPP: los datos son necesarios para cumplir una obligación legal.';
    const refused = await staffCall(t, 'analyst', 'POST', `/${filed.id}/refuse`, { legal_reason: legalReason });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().data).toMatchObject({ state: 'REFUSED', refusal_reason: legalReason });
    expect(
      (await staffCall(t, 'analyst', 'POST', `/${filed.id}/refuse`, { legal_reason: legalReason })).statusCode,
    ).toBe(409);

    const seen = (await mine(t.app, person, 'requests')).json().data.items[0];
    expect(seen).toMatchObject({ folio: filed.folio, state: 'REFUSED', refusal_reason: legalReason });
    expect(await eventTypes(t.app, person.id)).toEqual(
      expect.arrayContaining(['privacy.request_viewed', 'privacy.request_refused']),
    );
    expect(await verifyAuditChain(t.app.db, person.id)).toMatchObject({ valid: true });
  });

  it('a rectification corrects the field at any step; the chain names the field, never the value', async () => {
    const person = await createApplication(t.app, { nextStep: 'PENDING_APPROVAL', status: 'WAITING' });
    const filed = (
      await fileRequest(t.app, person, { kind: 'rectification', field: 'lastname', reason: 'Mi apellido lleva tilde.' })
    ).json().data;
    const started = await staffCall(t, 'analyst', 'POST', `/${filed.id}/start`);
    expect(started.json().data.state).toBe('IN_PROGRESS');
    const fixed = await staffCall(t, 'analyst', 'POST', `/${filed.id}/rectify`, { field: 'lastname', value: 'Muñíz' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data).toMatchObject({ state: 'DONE', resolution: 'rectified:lastname' });
    const [row] = await t.app.db.select({ lastname: users.lastname }).from(users).where(eq(users.id, person.id));
    expect(row!.lastname).toBe('Muñíz');
    const chain = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, person.id));
    expect(JSON.stringify(chain)).not.toContain('Muñíz');
  });

  it('an admin erases a cancellation: the request stays DONE, the chain still verifies, the phone starts anew', async () => {
    const person = await createApplication(t.app);
    const filed = (await fileRequest(t.app, person, cancellation)).json().data;
    const opposition = (
      await fileRequest(t.app, person, { kind: 'rectification', field: 'name', reason: 'Nombre mal.' + ' ok' })
    ).json().data;
    expect((await staffCall(t, 'admin', 'POST', `/${opposition.id}/erase`)).statusCode).toBe(409);
    const erased = await staffCall(t, 'admin', 'POST', `/${filed.id}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data).toMatchObject({ state: 'DONE', resolution: 'erased' });
    const types = await eventTypes(t.app, person.id);
    expect(types).toEqual(expect.arrayContaining(['privacy.erased', 'privacy.request_erased']));
    expect(await verifyAuditChain(t.app.db, person.id)).toMatchObject({ valid: true });
    // The same number proving itself again finds no application: a new one starts.
    const phoneE164 = toE164(t.app.config.COUNTRY, person.phone);
    const phoneToken = t.app.tokens.issue({ kind: 'phone', phoneE164 }).token;
    const lookup = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users?phone_number=${encodeURIComponent(person.phone)}`,
      headers: { authorization: `Bearer ${phoneToken}` },
    });
    expect(lookup.statusCode).toBe(404);
    const queue = (await staffCall(t, 'admin', 'GET', '?state=all')).json().data.items as {
      id: string;
      state: string;
    }[];
    expect(queue.find((item) => item.id === filed.id)?.state).toBe('DONE');
  });
});

describe('privacy requests in Mexico', () => {
  const t = useTestApp({ COUNTRY: 'mx', RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    clock: manualClock(new Date('2026-11-21T12:00:00Z')),
  });

  it('twenty business days (LFPDPPP art. 32), overdue once past them', async () => {
    const person = await createApplication(t.app);
    const filed = await fileRequest(t.app, person, cancellation);
    expect(filed.statusCode, filed.body).toBe(201);
    expect(filed.json().data.deadline).toBe('2026-12-18');
    (t.app.clock as ReturnType<typeof manualClock>).advance(30 * 86_400);
    const [item] = (await mine(t.app, person, 'requests')).json().data.items;
    expect(item).toMatchObject({ deadline: '2026-12-18', overdue: true });
    const { headers } = await staffSession(t.app, 'admin');
    const queue = await t.app.inject({ method: 'GET', url: '/api/backoffice/privacy-requests', headers });
    expect(queue.json().data.items[0]).toMatchObject({ id: filed.json().data.id, overdue: true });
  });
});

describe('a signed contract', () => {
  // The contract's PDF is built on a worker: a loaded CI machine needs more than the default 10 s.
  const t = useTestApp({ ...MANY_UPLOADS_ENV, IDENTITY_SIMULATOR_DELAY_MS: '0', PDF_TIMEOUT_MS: '60000' });

  it('keeps the data: erasing is a Spanish 409 with the legal reason, and the request stays open', async () => {
    const signer = await verifiedSigner(t.app);
    expect((await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }))).statusCode).toBe(200);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, signer.userId));
    const person = { id: signer.userId, phone: user!.phoneE164 };
    const filed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${person.id}/SK/privacy/requests`,
      headers: {
        authorization: `Bearer ${t.app.tokens.issue({ kind: 'user', userId: person.id, phoneE164: person.phone }).token}`,
      },
      payload: cancellation,
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const erased = await staffCall(t, 'admin', 'POST', `/${filed.json().data.id}/erase`);
    expect(erased.statusCode).toBe(409);
    expect(erased.json().readable_message).toContain('contrato firmado');
    const detail = await staffCall(t, 'admin', 'GET', `/${filed.json().data.id}`);
    expect(detail.json().data.request.state).toBe('RECEIVED');
  });
});

describe('staff answers that write the person’s data back', () => {
  const t = useTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  const rectification = (field: string) => ({ kind: 'rectification', field, reason: 'Ese dato está mal escrito.' });
  const nameOf = async (id: string) =>
    (await t.app.db.select({ name: users.name }).from(users).where(eq(users.id, id)))[0]!.name;
  const stateOf = async (id: string) =>
    (
      await t.app.db.select({ state: privacyRequests.state }).from(privacyRequests).where(eq(privacyRequests.id, id))
    )[0]!.state;

  it('a rectification of an erased person is a Spanish 410 and writes nothing back', async () => {
    const person = await createApplication(t.app);
    const rectify = (await fileRequest(t.app, person, rectification('name'))).json().data;
    const cancel = (await fileRequest(t.app, person, cancellation)).json().data;
    expect((await staffCall(t, 'admin', 'POST', `/${cancel.id}/erase`)).statusCode).toBe(200);
    // Even with the rectification still open (the erasure closing it is the privacy module's part).
    await t.app.db.update(privacyRequests).set({ state: 'RECEIVED' }).where(eq(privacyRequests.id, rectify.id));

    const fixed = await staffCall(t, 'admin', 'POST', `/${rectify.id}/rectify`, {
      field: 'name',
      value: 'Secretísimo',
    });
    expect(fixed.statusCode, fixed.body).toBe(410);
    expect(fixed.json()).toMatchObject({ code: 'PERSON_ERASED' });
    expect(fixed.json().readable_message).toContain('ya se eliminaron');
    expect(await nameOf(person.id)).not.toBe('Secretísimo');
    expect(await stateOf(rectify.id)).toBe('RECEIVED');
    expect(await eventTypes(t.app, person.id)).not.toContain('privacy.request_rectified');
    expect(await verifyAuditChain(t.app.db, person.id)).toMatchObject({ valid: true });
  });

  it('rectifies only the field the person asked about: another one is a Spanish 409, nothing written', async () => {
    const person = await createApplication(t.app, { name: 'Begoña' });
    const filed = (await fileRequest(t.app, person, rectification('lastname'))).json().data;
    const other = await staffCall(t, 'analyst', 'POST', `/${filed.id}/rectify`, { field: 'name', value: 'Roberta' });
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json()).toMatchObject({
      code: 'PRIVACY_RECTIFY_FIELD',
      readable_message: 'Esta solicitud pide corregir el apellido paterno, no el nombre.',
    });
    expect(await nameOf(person.id)).toBe('Begoña');
    expect(await stateOf(filed.id)).toBe('RECEIVED');
  });

  it('the corrected value meets the registration field’s rules: a Spanish 400 on the value', async () => {
    // One open rectification per person: each field is asked by its own applicant.
    const asked = async (field: string) => {
      const person = await createApplication(t.app, { name: 'Begoña' });
      return { person, id: (await fileRequest(t.app, person, rectification(field))).json().data.id as string };
    };
    const [names, surname, business] = [
      await asked('name'),
      await asked('maternal_lastname'),
      await asked('business_name'),
    ];
    const cases = [
      [names, 'name', 'R2-D2', NAME_MESSAGES.nameFormat],
      [names, 'name', 'A'.repeat(31), NAME_MESSAGES.tooLong(30)],
      [surname, 'maternal_lastname', 'Pérez 3', NAME_MESSAGES.maternalFormat],
      [business, 'business_name', 'Colmado <script>', BUSINESS_MESSAGES.nameFormat],
      [business, 'business_name', 'Colmado 🍌', '* No uses emojis ni caracteres especiales.'],
    ] as const;
    for (const [request, field, value, message] of cases) {
      const refused = await staffCall(t, 'analyst', 'POST', `/${request.id}/rectify`, { field, value });
      expect(refused.statusCode, `${field}=${value}: ${refused.body}`).toBe(400);
      expect(refused.json().issues).toEqual([{ field: 'body.value', message }]);
      expect(refused.json().readable_message).toBe(message);
      expect(await stateOf(request.id)).toBe('RECEIVED');
    }
    expect(await nameOf(names.person.id)).toBe('Begoña');

    const fixed = await staffCall(t, 'analyst', 'POST', `/${business.id}/rectify`, {
      field: 'business_name',
      value: 'Colmado Doña Begoña #2',
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const [shop] = await t.app.db
      .select({ name: businesses.name })
      .from(businesses)
      .where(eq(businesses.userId, business.person.id));
    expect(shop!.name).toBe('Colmado Doña Begoña #2');
  });

  it('a staff erasure while the retention job erases the same application: one waits for the other, never a 500', async () => {
    const person = await createApplication(t.app);
    const filed = (await fileRequest(t.app, person, cancellation)).json().data;
    const { headers } = await staffSession(t.app, 'admin');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // The retention job's order: the application's row first, then (in the erasure) its requests.
    const retention = t.app.db.transaction(async (tx) => {
      await tx.execute(sql`select id from users where id = ${person.id} for update`);
      locked();
      await gate;
      return eraseApplication({ cipher: t.app.cipher, clock: t.app.clock }, tx, person.id, 'system:retention');
    });
    await lockTaken;
    const staff = t.app.inject({ method: 'POST', url: `/api/backoffice/privacy-requests/${filed.id}/erase`, headers });
    // Long enough for the staff answer to reach its first lock (PostgreSQL: it waits there).
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    const [answered, erased] = await Promise.all([staff, retention]);
    expect(erased.erased).toBe(true);
    // The retention erasure went first: the staff answer finds the person erased (and, once the
    // erasure closes the person's open requests, the request answered: a 409).
    expect([200, 409], answered.body).toContain(answered.statusCode);
    expect((await eventTypes(t.app, person.id)).filter((type) => type === 'privacy.erased')).toHaveLength(1);
    expect(await verifyAuditChain(t.app.db, person.id)).toMatchObject({ valid: true });
  });
});
