import { cedulaCheckDigit } from '@provee/domain';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, avals, bureauConsents, creditDecisions, reverseOtpSessions, users } from '../../db/schema.js';
import { createApplication, userAuth } from '../../test/factories.js';
import { createPhone } from '../../test/phone.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp } from '../../test/test-app.js';
import { GUARANTOR_NUMBERS_PER_DAY } from './guarantor-phone.js';
import { jobsOf, recordRemoteConsents } from '../../test/jobs.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
/** The bureau simulator's test identities: a strong history and a delinquent one. */
const APPROVED_GUARANTOR = cedula('9990000001');
const REFUSED_GUARANTOR = cedula('9990000002');
const OPS_KEY = 'provee-dev-ops-key-not-for-production';

describe('guarantors (avals): naming, PIN consent in person, phone change', () => {
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' });

  /** A shopkeeper past the password (INVENTORY) and their token. */
  async function shopkeeper() {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'INVENTORY' });
    return { user, auth: userAuth(t.app, user) };
  }

  async function name(
    who: Awaited<ReturnType<typeof shopkeeper>>,
    body: Partial<{ aval_type: string; name: string; phone_number: string; tax_payer_id: string }> = {},
  ) {
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${who.user.id}/SK/avals`,
      headers: who.auth,
      payload: {
        aval_type: 'PARTNER',
        name: 'Ramón Antonio Pérez',
        phone_number: createPhone(),
        tax_payer_id: APPROVED_GUARANTOR,
        ...body,
      },
    });
  }

  const sendPin = (who: Awaited<ReturnType<typeof shopkeeper>>, to: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/users/${who.user.id}/SK/aval/nip?to=${to}`, headers: who.auth });
  const confirmPin = (who: Awaited<ReturnType<typeof shopkeeper>>, to: string, nip: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${who.user.id}/SK/aval/nip?to=${to}`,
      headers: who.auth,
      payload: { nip },
    });

  it('naming a partner moves the application to PARTNER_NIP and routes to the partner PIN screen', async () => {
    const who = await shopkeeper();
    const phone = createPhone();
    const res = await name(who, { phone_number: phone });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ next_step: 'PARTNER_NIP', status: 'IN_PROGRESS' });
    expect(data.path).toBe(`/partner/SK/${who.user.id}/${phone}/send-nip-partner`);
    expect(data.aval).toMatchObject({ aval_type: 'PARTNER', name: 'Ramón Antonio Pérez', phone, status: 'PENDING' });
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/users/${who.user.id}/SK`, headers: who.auth });
    expect(detail.json().data.avals).toEqual([{ aval_type: 'PARTNER', phone }]);
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, who.user.id));
    expect(events.map((event) => event.type)).toContain('guarantor.named');
  });

  it('refuses a bad name, tax id or phone with Spanish field messages, and the shopkeeper’s own number', async () => {
    const who = await shopkeeper();
    const bad = await name(who, { name: '😀', tax_payer_id: '123', phone_number: createPhone() });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('nombre completo');
    const own = await name(who, { phone_number: who.user.phone });
    expect(own.statusCode).toBe(400);
    expect(JSON.stringify(own.json())).toContain('propio celular');
  });

  it('in person: the PIN goes to the guarantor, confirms the consent, the bureau approves → PENDING_APPROVAL', async () => {
    const who = await shopkeeper();
    const phone = createPhone();
    await name(who, { phone_number: phone });
    const sent = await sendPin(who, phone);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ collateralName: 'Ramón Antonio Pérez', aval_type: 'PARTNER' });
    expect(sent.json().data.shopkeeperName).toBeTruthy();
    const nip = sent.json().data.default_nip as string;
    expect(nip).toMatch(/^\d{4}$/);
    const wrong = await confirmPin(who, phone, nip === '0000' ? '1111' : '0000');
    expect(wrong.statusCode).toBe(400);
    const done = await confirmPin(who, phone, nip);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ next_step: 'PENDING_APPROVAL', aval: { status: 'APPROVED' } });
    const consents = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.userId, who.user.id));
    const guarantorConsent = consents.find((consent) => consent.avalId !== null)!;
    expect(guarantorConsent).toMatchObject({ personType: 'collateral', pinVerified: true });
    // The guarantor's own wording, the one their screens show.
    expect(guarantorConsent.consentText).toContain('como aval de la solicitud de crédito');
    const shown = await t.app.inject({ method: 'GET', url: '/api/v1/consents/text?person_type=collateral' });
    expect(shown.json().data.text).toBe(guarantorConsent.consentText);
    const own = await t.app.inject({ method: 'GET', url: '/api/v1/consents/text' });
    expect(own.json().data.text).not.toContain('como aval');
    const decisions = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, who.user.id));
    expect(decisions.find((decision) => decision.avalId !== null)).toMatchObject({ result: 'APPROVED', amount: 0 });
  });

  it('a refused guarantor asks for another partner; naming a new one replaces the refused one', async () => {
    const who = await shopkeeper();
    const phone = createPhone();
    await name(who, { phone_number: phone, tax_payer_id: REFUSED_GUARANTOR });
    const nip = (await sendPin(who, phone)).json().data.default_nip;
    const done = await confirmPin(who, phone, nip);
    expect(done.json().data).toMatchObject({ next_step: 'ASK_REPLACE_PARTNER', aval: { status: 'REFUSED' } });
    const again = await name(who, { phone_number: createPhone() });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.next_step).toBe('PARTNER_NIP');
    const rows = await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id));
    expect(rows.map((row) => row.status).sort()).toEqual(['PENDING', 'REPLACED']);
  });

  it('20 parallel PIN confirmations record one consent: one 200, the rest 409, never a 5xx', async () => {
    const who = await shopkeeper();
    const phone = createPhone();
    await name(who, { phone_number: phone });
    const nip = (await sendPin(who, phone)).json().data.default_nip;
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirmPin(who, phone, nip)));
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code !== 200).every((code) => code === 409)).toBe(true);
    const consents = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.userId, who.user.id));
    expect(consents.filter((consent) => consent.avalId !== null)).toHaveLength(1);
  });

  it('20 namings at once: one 200 and one guarantor, the rest 409 (or 429 past the day’s numbers), never a 5xx', async () => {
    const who = await shopkeeper();
    const answers = await Promise.all(Array.from({ length: 20 }, () => name(who, { phone_number: createPhone() })));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code !== 200).every((code) => code === 409 || code === 429)).toBe(true);
    expect(codes.filter((code) => code === 429)).toHaveLength(20 - GUARANTOR_NUMBERS_PER_DAY);
    expect(await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id))).toHaveLength(1);
  });

  it(`an application tries at most ${GUARANTOR_NUMBERS_PER_DAY} guarantor numbers a day: the form cannot probe who applied`, async () => {
    const who = await shopkeeper();
    const applicants = await Promise.all(Array.from({ length: GUARANTOR_NUMBERS_PER_DAY }, () => shopkeeper()));
    for (const other of applicants) expect((await name(who, { phone_number: other.user.phone })).statusCode).toBe(400);
    // The same number again costs nothing; a new one is refused for the day, without saying anything of it.
    expect((await name(who, { phone_number: applicants[0]!.user.phone })).statusCode).toBe(400);
    const next = await name(who, { phone_number: createPhone() });
    expect(next.statusCode).toBe(429);
    expect(next.json().code).toBe('GUARANTOR_NUMBERS_LIMIT');
    expect(next.json().readable_message).toMatch(/varios números de aval/);
  });

  it('a phone change sends the PIN to the new number; the old PIN is refused, the new one works', async () => {
    const who = await shopkeeper();
    const oldPhone = createPhone();
    await name(who, { phone_number: oldPhone });
    const oldNip = (await sendPin(who, oldPhone)).json().data.default_nip;
    const newPhone = createPhone();
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${who.user.id}/SK/aval/phone-number`,
      headers: who.auth,
      payload: { aval_type: 'PARTNER', phone_number: oldPhone, new_phone_number: `+1${newPhone}` },
    });
    expect(changed.statusCode).toBe(200);
    const newNip = changed.json().data.default_nip;
    const outbox = await t.app.inject({
      method: 'GET',
      url: `/dev/outbox.json?to=${encodeURIComponent(`+1${newPhone}`)}`,
    });
    expect(outbox.json().messages[0].body).toContain(newNip);
    // The old number is no longer the guarantor's: its PIN screen is gone and its PIN proves nothing.
    expect((await confirmPin(who, oldPhone, oldNip)).statusCode).toBe(404);
    if (oldNip !== newNip) expect((await confirmPin(who, newPhone, oldNip)).statusCode).toBe(400);
    const done = await confirmPin(who, newPhone, newNip);
    expect(done.statusCode).toBe(200);
    expect(done.json().data.aval.phone).toBe(newPhone);
  });

  it('a change to a number still inside its PIN resend interval is refused (429) and changes nothing (fuzzing suite)', async () => {
    const who = await shopkeeper();
    const first = createPhone();
    await name(who, { phone_number: first });
    const change = (from: string, to: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${who.user.id}/SK/aval/phone-number`,
        headers: who.auth,
        payload: { aval_type: 'PARTNER', phone_number: from, new_phone_number: `+1${to}` },
      });
    const second = createPhone();
    expect((await change(first, second)).statusCode).toBe(200);
    const [before] = await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id));
    const eventsBefore = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, who.user.id)))
      .length;
    // Back to the second number's own PIN interval: 429, and the guarantor keeps the number they have.
    const again = await change(second, second);
    expect(again.statusCode, again.body).toBe(429);
    expect(again.json()).toMatchObject({ code: 'CODE_RESEND_TOO_SOON' });
    expect(await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id))).toEqual([before]);
    expect((await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, who.user.id))).length).toBe(
      eventsBefore,
    );
    expect((await sendPin(who, second)).statusCode).toBe(429);
  });

  it('a new number needs the country prefix and a valid mobile number', async () => {
    const who = await shopkeeper();
    const phone = createPhone();
    await name(who, { phone_number: phone });
    for (const newNumber of ['8095550000', '+52 55 1234 5678', '+1123']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${who.user.id}/SK/aval/phone-number`,
        headers: who.auth,
        payload: { aval_type: 'PARTNER', phone_number: phone, new_phone_number: newNumber },
      });
      expect(res.statusCode, newNumber).toBe(400);
    }
  });

  it('another shopkeeper’s token, no token, and another shopkeeper’s guarantor are refused', async () => {
    const owner = await shopkeeper();
    const stranger = await shopkeeper();
    const phone = createPhone();
    await name(owner, { phone_number: phone });
    const asStranger = { ...owner, auth: stranger.auth };
    expect((await sendPin(asStranger, phone)).statusCode).toBe(403);
    expect((await name(asStranger)).statusCode).toBe(403);
    expect((await confirmPin(asStranger, phone, '1234')).statusCode).toBe(403);
    expect((await sendPin({ ...owner, auth: {} as never }, phone)).statusCode).toBe(401);
    // The stranger's own application has no such guarantor.
    await name(stranger, { phone_number: createPhone() });
    expect((await sendPin(stranger, phone)).statusCode).toBe(404);
  });

  it('naming is refused before the password (409 with where the application stands)', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'ACCOUNT_NIP' });
    const res = await name({ user, auth: userAuth(t.app, user) });
    expect(res.statusCode).toBe(409);
    expect(res.json().current.next_step).toBe('ACCOUNT_NIP');
  });

  it('an analyst naming one too early, or past the step, reads why in staff words, not the shopkeeper’s (issue 27)', async () => {
    const { headers } = await staffSession(t.app, 'analyst');
    const nameAs = (userId: string, aval_type = 'PARTNER') =>
      t.app.inject({
        method: 'POST',
        url: `/api/backoffice/applications/${userId}/guarantors`,
        headers,
        payload: { aval_type, name: 'Ana Lucía Gómez', phone_number: createPhone(), tax_payer_id: APPROVED_GUARANTOR },
      });
    const early = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'PASSWORD' });
    const tooEarly = await nameAs(early.id);
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json()).toMatchObject({
      code: 'GUARANTOR_NOT_NOW',
      readable_message:
        'Todavía no se puede registrar un aval: la solicitud está en «Contraseña». Se puede cuando el solicitante haya creado su contraseña (paso «Inventario»).',
      current: { next_step: 'PASSWORD' },
    });
    const named = await shopkeeper();
    expect((await name(named)).statusCode).toBe(200);
    const again = await nameAs(named.user.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().readable_message).toBe(
      'No se puede registrar un socio en este momento: la solicitud está en «NIP del socio». Se registra desde «Inventario», o cuando la solicitud pida otro.',
    );
    const rejected = await createApplication(t.app, {
      taxId: cedula(randomTen()),
      nextStep: 'PASSWORD',
      status: 'REJECTED',
    });
    expect((await nameAs(rejected.id, 'COLLATERAL')).json().readable_message).toBe(
      'No se puede registrar un aval: la solicitud fue rechazada.',
    );
    // The shopkeeper's own form keeps the screen's wording (the app moves them where they stand).
    const own = await name({ user: early, auth: userAuth(t.app, early) });
    expect(own.json().code).toBe('STEP_NOT_CURRENT');
  });

  it('an analyst names a guarantor from the back office; nobody without a staff session can', async () => {
    const who = await shopkeeper();
    const payload = {
      aval_type: 'COLLATERAL',
      name: 'Ana Lucía Gómez',
      phone_number: createPhone(),
      tax_payer_id: APPROVED_GUARANTOR,
    };
    const url = `/api/backoffice/applications/${who.user.id}/guarantors`;
    expect((await t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url, payload, headers: { 'x-api-key': OPS_KEY } })).statusCode).toBe(
      401,
    );
    const { headers } = await staffSession(t.app, 'analyst');
    const res = await t.app.inject({ method: 'POST', url, payload, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.next_step).toBe('COLLATERAL_NIP');
    const [row] = await t.app.db.select().from(users).where(eq(users.id, who.user.id));
    expect(row!.nextStep).toBe('COLLATERAL_NIP');
  });

  describe('issue 26: a guarantor’s phone is their own', () => {
    const changePhone = (who: Awaited<ReturnType<typeof shopkeeper>>, from: string, to: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${who.user.id}/SK/aval/phone-number`,
        headers: who.auth,
        payload: { aval_type: 'PARTNER', phone_number: from, new_phone_number: `+1${to}` },
      });

    it('refuses a number another applicant proved as their own (form, phone change and back office), in Spanish', async () => {
      const who = await shopkeeper();
      const otherApplicant = await shopkeeper();
      const eventsBefore = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, who.user.id)))
        .length;
      const res = await name(who, { phone_number: otherApplicant.user.phone });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        { field: 'body.phone_number', message: expect.stringMatching(/celular propio del aval/) },
      ]);
      expect(res.json().readable_message).toBeTruthy();
      const [row] = await t.app.db.select().from(users).where(eq(users.id, who.user.id));
      expect(row!.nextStep).toBe('INVENTORY');
      expect(await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id))).toHaveLength(0);
      // Nothing but the try itself, which counts towards the day's budget of numbers.
      const eventsAfter = await t.app.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.applicationId, who.user.id))
        .orderBy(asc(auditEvents.id));
      expect(eventsAfter.slice(eventsBefore).map((event) => event.type)).toEqual(['guarantor.phone_tried']);

      // Named with a good number, then changed to an applicant's (their own, or another's).
      const phone = createPhone();
      expect((await name(who, { phone_number: phone })).statusCode).toBe(200);
      for (const taken of [otherApplicant.user.phone, who.user.phone]) {
        const changed = await changePhone(who, phone, taken);
        expect(changed.statusCode, taken).toBe(400);
        expect(JSON.stringify(changed.json().issues)).toMatch(/celular propio del aval|distinto al tuyo/);
      }
      const [aval] = await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id));
      expect(aval!.phoneE164).toBe(`+1${phone}`);

      // The same rule when an analyst names the guarantor.
      const third = await shopkeeper();
      const { headers } = await staffSession(t.app, 'analyst');
      const byAnalyst = await t.app.inject({
        method: 'POST',
        url: `/api/backoffice/applications/${third.user.id}/guarantors`,
        headers,
        payload: {
          aval_type: 'PARTNER',
          name: 'Pedro Aval',
          phone_number: otherApplicant.user.phone,
          tax_payer_id: APPROVED_GUARANTOR,
        },
      });
      expect(byAnalyst.statusCode).toBe(400);
      expect(JSON.stringify(byAnalyst.json().issues)).toMatch(/celular propio del aval/);
    });

    it('flags in the back office a guarantor phone named on more than one application', async () => {
      const shared = createPhone();
      const first = await shopkeeper();
      const second = await shopkeeper();
      const alone = await shopkeeper();
      expect((await name(first, { phone_number: shared })).statusCode).toBe(200);
      expect((await name(second, { phone_number: shared, aval_type: 'PARTNER' })).statusCode).toBe(200);
      expect((await name(alone, { phone_number: createPhone() })).statusCode).toBe(200);
      const { headers } = await staffSession(t.app, 'advisor');
      const detail = async (id: string) =>
        (await t.app.inject({ method: 'GET', url: `/api/backoffice/applications/${id}`, headers })).json().data;
      expect((await detail(first.user.id)).guarantors[0]).toMatchObject({ phone_other_applications: 1 });
      expect((await detail(second.user.id)).guarantors[0]).toMatchObject({ phone_other_applications: 1 });
      expect((await detail(alone.user.id)).guarantors[0]).toMatchObject({ phone_other_applications: 0 });
      const search = async (q: string) =>
        (await t.app.inject({ method: 'GET', url: `/api/backoffice/applications?q=${q}`, headers })).json().data.items;
      const list = await search(first.user.phone);
      expect(list[0]).toMatchObject({ id: first.user.id, guarantor_phone_shared: true });
      const other = await search(alone.user.phone);
      expect(other[0]).toMatchObject({ id: alone.user.id, guarantor_phone_shared: false });
    });
  });

  describe('remote consent by invitation', () => {
    /** A named guarantor and the token of the invitation link the SMS carried. */
    async function invited(taxId = APPROVED_GUARANTOR) {
      const who = await shopkeeper();
      const phone = createPhone();
      const named = await name(who, { phone_number: phone, tax_payer_id: taxId });
      const outbox = await t.app.inject({
        method: 'GET',
        url: `/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`,
      });
      const sms = outbox.json().messages[0].body as string;
      const token = decodeURIComponent(/verify-aval-phone\?token=([^\s]+)/.exec(sms)![1]!);
      return { who, phone, aval: named.json().data.aval, token, sms, auth: { authorization: `Bearer ${token}` } };
    }
    const start = (guest: Awaited<ReturnType<typeof invited>>, auth = guest.auth) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/users/aval/consent',
        headers: auth,
        payload: {
          account_type_id: 'SK',
          account_id: guest.who.user.id,
          collateral_id: guest.aval.id,
          ip_address: '190.0.0.1',
        },
      });
    const validate = (sessionId: string) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/users/aval/reverse-otp', payload: { session_id: sessionId } });
    const message = (from: string, text: string) =>
      t.app.inject({ method: 'POST', url: '/dev/reverse-otp/inbound', payload: { from, text } });

    it('the invitation SMS carries only an opaque token; the page reads the names from the server', async () => {
      const guest = await invited();
      expect(guest.sms).not.toContain(guest.who.user.id);
      expect(guest.sms).not.toContain(guest.phone);
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/aval/invitation', headers: guest.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        user_id: guest.who.user.id,
        collateral_id: guest.aval.id,
        collateralName: 'Ramón Antonio Pérez',
        aval_type: 'PARTNER',
        status: 'PENDING',
      });
    });

    it('a message from the guarantor’s own phone is their consent: success, consent recorded, bureau run', async () => {
      const guest = await invited();
      const started = await start(guest);
      expect(started.statusCode).toBe(200);
      const { redirection_url: url, session_id: sessionId, message: text } = started.json().data;
      expect(url).toMatch(/^https:\/\/wa\.me\//);
      expect((await validate(sessionId)).json().data.validation).toBe('pending');
      await message(`+1${guest.phone}`, text);
      // Two tabs asking at once: both see success, one consent.
      const both = await Promise.all([validate(sessionId), validate(sessionId)]);
      expect(both.map((res) => res.json().data.validation)).toEqual(['success', 'success']);
      const consents = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.avalId, guest.aval.id));
      expect(consents).toHaveLength(1);
      expect(consents[0]).toMatchObject({ personType: 'collateral', pinVerified: false, ip: expect.any(String) });
      const [row] = await t.app.db.select().from(users).where(eq(users.id, guest.who.user.id));
      expect(row!.nextStep).toBe('PENDING_APPROVAL');
    });

    it('the consent counts even when nobody comes back to the page: the message’s job records it', async () => {
      const guest = await invited();
      const { message: text } = (await start(guest)).json().data;
      await message(`+1${guest.phone}`, text);
      expect(await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.avalId, guest.aval.id))).toHaveLength(
        0,
      );
      // The message's transaction enqueued the consent's job: one, for this session.
      const [session] = await t.app.db
        .select()
        .from(reverseOtpSessions)
        .where(eq(reverseOtpSessions.anonymousId, `aval-${guest.aval.id}`));
      const jobs = (await jobsOf(t.app, 'remote-consent')).filter(
        (job) => (job.data as { session_id: string }).session_id === session!.id,
      );
      expect(jobs.map((job) => job.state)).toEqual(['created']);
      expect((await recordRemoteConsents(t.app)).ran).toBeGreaterThanOrEqual(1);
      const consents = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.avalId, guest.aval.id));
      expect(consents).toHaveLength(1);
      expect(consents[0]!.ip).toBeTruthy();
      const [row] = await t.app.db.select().from(users).where(eq(users.id, guest.who.user.id));
      expect(row!.nextStep).toBe('PENDING_APPROVAL');
    });

    it('the message’s job of a session past its time records nothing, and holds no newer one back', async () => {
      const stale = await invited();
      const { message: staleText } = (await start(stale)).json().data;
      await message(`+1${stale.phone}`, staleText);
      const longAgo = new Date(Date.now() - (t.app.config.REVERSE_OTP_TTL_SECONDS + 60) * 1000);
      await t.app.db
        .update(reverseOtpSessions)
        .set({ resolvedAt: longAgo })
        .where(eq(reverseOtpSessions.anonymousId, `aval-${stale.aval.id}`));
      const fresh = await invited();
      const { message: text } = (await start(fresh)).json().data;
      await message(`+1${fresh.phone}`, text);
      // Each message's job: the one that can still be recorded is; the stale one's ends with nothing.
      expect(await recordRemoteConsents(t.app)).toMatchObject({ failed: 0 });
      expect(await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.avalId, fresh.aval.id))).toHaveLength(
        1,
      );
      expect(await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.avalId, stale.aval.id))).toHaveLength(
        0,
      );
    });

    it('a guarantor who comes back long after the message reads success, not an error (issue 27)', async () => {
      const guest = await invited();
      const { session_id: sessionId, message: text } = (await start(guest)).json().data;
      await message(`+1${guest.phone}`, text);
      // Recorded with nobody on the page; the page asks again only after the session's TTL.
      await recordRemoteConsents(t.app);
      const longAgo = new Date(Date.now() - (t.app.config.REVERSE_OTP_TTL_SECONDS + 60) * 1000);
      await t.app.db
        .update(reverseOtpSessions)
        .set({ resolvedAt: longAgo })
        .where(eq(reverseOtpSessions.anonymousId, `aval-${guest.aval.id}`));
      expect((await validate(sessionId)).json().data.validation).toBe('success');
      // A session that was never answered still ends in an error once it expired.
      const other = await invited();
      const { session_id: unanswered } = (await start(other)).json().data;
      await t.app.db
        .update(reverseOtpSessions)
        .set({ expiresAt: longAgo })
        .where(eq(reverseOtpSessions.anonymousId, `aval-${other.aval.id}`));
      expect((await validate(unanswered)).json().data.validation).toBe('error');
    });

    it('a message from another number is an error and records nothing', async () => {
      const guest = await invited();
      const { session_id: sessionId, message: text } = (await start(guest)).json().data;
      await message(`+1${createPhone()}`, text);
      expect((await validate(sessionId)).json().data.validation).toBe('error');
      expect(await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.avalId, guest.aval.id))).toHaveLength(
        0,
      );
    });

    it('a forged or expired token, another guarantor’s id, and a token after a phone change are refused', async () => {
      const guest = await invited();
      const forged = `${guest.token.slice(0, -2)}xx`;
      expect((await start(guest, { authorization: `Bearer ${forged}` })).statusCode).toBe(401);
      const expired = t.app.tokens.issue(
        { kind: 'aval', avalId: guest.aval.id, userId: guest.who.user.id, phoneE164: `+1${guest.phone}` },
        -1,
      ).token;
      expect((await start(guest, { authorization: `Bearer ${expired}` })).statusCode).toBe(401);
      const other = await invited();
      const mixed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/users/aval/consent',
        headers: guest.auth,
        payload: { account_type_id: 'SK', account_id: other.who.user.id, collateral_id: other.aval.id },
      });
      expect(mixed.statusCode).toBe(403);
      // The invitation token opens neither the shopkeeper's data nor another shopkeeper's PIN routes.
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/v1/users/${guest.who.user.id}/SK`, headers: guest.auth }))
          .statusCode,
      ).toBe(403);
      expect((await sendPin({ ...other.who, auth: guest.auth }, other.phone)).statusCode).toBe(403);
      // The PIN routes accept it for its own guarantor.
      expect((await sendPin({ ...guest.who, auth: guest.auth }, guest.phone)).statusCode).toBe(200);
      // After a phone change the old link is void.
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${guest.who.user.id}/SK/aval/phone-number`,
        headers: guest.who.auth,
        payload: { aval_type: 'PARTNER', phone_number: guest.phone, new_phone_number: `+1${createPhone()}` },
      });
      expect((await start(guest)).statusCode).toBe(403);
    });
  });
});
