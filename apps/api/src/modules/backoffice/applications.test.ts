import { randomUUID } from 'node:crypto';
import { cedulaCheckDigit, formatCedula, STAFF_ROLES, staffMay, type StaffPermission } from '@provee/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, bureauQueries, businessAddresses, catalogNeighborhoods } from '../../db/schema.js';
import { answerSimulatedChecks, runBureauJobs } from '../../test/jobs.js';
import { createJpeg, seedApplication, userAuth } from '../../test/factories.js';
import { consentWithOfferedPin } from '../../test/signer.js';
import { multipart } from '../../test/multipart.js';
import { createPhone } from '../../test/phone.js';
import { createTestApp, manualClock, type TestApp } from '../../test/test-app.js';
import { staffSession } from '../../test/staff.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let serial = 0;
const nextTen = (prefix = '4') =>
  `${prefix}${String((serial += 1) + Math.floor(Math.random() * 1e6) * 100).padStart(9, '0')}`.slice(0, 10);
const UNDER_REVIEW_ID = () => cedula(`9990007${String((serial += 1)).padStart(3, '0')}`);
const FAILING_BUREAU_ID = cedula('9990000005');

describe('back office: applications, evidence and actions', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  let analyst: Awaited<ReturnType<typeof staffSession>>;
  let advisor: Awaited<ReturnType<typeof staffSession>>;
  beforeAll(async () => {
    t = await createTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000', BUREAU_MAX_ATTEMPTS: '3' }, undefined, {
      clock,
    });
  });
  // The tests move the clock by hours: each starts with fresh sessions (30 idle minutes at most).
  beforeEach(async () => {
    analyst = await staffSession(t.app, 'analyst');
    advisor = await staffSession(t.app, 'advisor');
  });
  afterAll(() => t.close());

  const get = (url: string, headers = analyst.headers) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice${url}`, headers });
  const post = (url: string, payload: Record<string, unknown> = {}, headers = analyst.headers) =>
    t.app.inject({ method: 'POST', url: `/api/backoffice${url}`, headers, payload });
  const seed = (taxId: string, name: string, nextStep = 'ACCOUNT_NIP') =>
    seedApplication(t.app, { phone: createPhone(), nextStep, complete: { taxId, name, lastname: 'Prueba' } }).then(
      async (user) => ({ ...user, phone: user.phoneE164.slice(2) }),
    );

  /** The real journey from the PIN on: a pre-approved shopkeeper (or a WAITING one for a failing bureau). */
  async function throughConsent(taxId: string, name = 'Rosa') {
    const user = await seed(taxId, name);
    const auth = userAuth(t.app, user);
    const res = await consentWithOfferedPin(t.app, user);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return { user, auth };
  }

  it('finds an application by formatted phone, exact tax id or part of the name, newest activity first', async () => {
    const taxId = cedula(nextTen());
    const first = await seed(taxId, 'Altagracia');
    clock.advance(60);
    const second = await seed(cedula(nextTen()), 'Altagracia');
    const byPhone = await get(
      `/applications?q=${encodeURIComponent(`+1 (${first.phone.slice(0, 3)}) ${first.phone.slice(3, 6)}-${first.phone.slice(6)}`)}`,
    );
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    expect(byPhone.json().data.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
    const byTaxId = await get(`/applications?q=${encodeURIComponent(formatCedula(taxId))}`);
    expect(byTaxId.json().data.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
    // Part of a tax id is not a search: the tax id is found only whole, through its keyed hash.
    expect((await get(`/applications?q=${taxId.slice(0, 6)}`)).json().data.total).toBe(0);
    const byName = (await get('/applications?q=altagracia')).json().data;
    expect(byName.items.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
    expect(byName.items[0]).toMatchObject({
      full_name: 'Altagracia Prueba Núñez',
      business_name: 'Colmado La Esquina',
    });
    const firstPage = (await get('/applications?q=altagracia&page_size=1')).json().data;
    expect(firstPage).toMatchObject({ total: 2, total_exact: true, page_size: 1, previous_cursor: null });
    const paged = (await get(`/applications?q=altagracia&page_size=1&after=${firstPage.next_cursor}`)).json().data;
    expect(paged).toMatchObject({ total: 2, page_size: 1, next_cursor: null });
    expect(paged.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
    const filtered = (await get('/applications?q=altagracia&next_step=TAX_ACCOUNT')).json().data;
    expect(filtered.total).toBe(0);
    expect((await get('/applications?country=mx')).json().data.total).toBe(0);
    const bad = await get('/applications?from=23-11-2026');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().readable_message).toBeTruthy();
  });

  it('advisors see the tax id, birth date and bureau report masked; analysts see them; the timeline verifies', async () => {
    const taxId = cedula(nextTen());
    const { user } = await throughConsent(taxId);
    const asAnalyst = (await get(`/applications/${user.id}`)).json().data;
    expect(asAnalyst).toMatchObject({ sensitive_visible: true, person: { tax_id: taxId, birth_date: '1985-02-28' } });
    expect(asAnalyst.consents).toHaveLength(1);
    expect(asAnalyst.consents[0]).toMatchObject({ pin_verified: true, person_type: 'titular' });
    expect(asAnalyst.decisions[0].rules.length).toBeGreaterThan(0);
    expect(asAnalyst.bureau_queries[0].report).not.toBeNull();
    const chain = asAnalyst.timeline.find((c: { chain: string }) => c.chain === 'application');
    expect(chain).toMatchObject({ valid: true, broken_at: null });
    expect(chain.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['consent.given', 'decision.made']),
    );

    const res = await get(`/applications/${user.id}`, advisor.headers);
    const asAdvisor = res.json().data;
    expect(asAdvisor.sensitive_visible).toBe(false);
    expect(asAdvisor.person.tax_id).toBe('•••••••••••');
    expect(asAdvisor.person.birth_date).toBe('••••-••-••');
    // The rules' outcomes, not their values (ages, score, late accounts are the applicant's data).
    expect(asAdvisor.decisions[0].rules.every((rule: { value: unknown }) => rule.value === null)).toBe(true);
    expect(asAdvisor.decisions[0].rules.map((rule: { passed: boolean }) => rule.passed)).toEqual(
      asAnalyst.decisions[0].rules.map((rule: { passed: boolean }) => rule.passed),
    );
    // Nor can an advisor confirm a guess about it: the tax-id search is for analysts.
    expect((await get(`/applications?q=${taxId}`, advisor.headers)).json().data.total).toBe(0);
    expect((await get(`/applications?q=${taxId}`)).json().data.total).toBe(1);
    expect(asAdvisor.bureau_queries[0].report).toBeNull();
    expect(res.body).not.toContain(taxId);
    expect(res.body).not.toContain('1985-02-28');
    expect((await get(`/applications/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('a chain altered in the database shows as broken, at the altered event', async () => {
    const { user } = await throughConsent(cedula(nextTen()));
    const [event] = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, user.id), eq(auditEvents.type, 'consent.given')));
    // Someone with database access edits the record (the append-only trigger switched off first).
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
      await tx.execute(sql`update audit_events set payload = '{"edited": true}'::jsonb where id = ${event!.id}`);
      await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    });
    const chain = (await get(`/applications/${user.id}`))
      .json()
      .data.timeline.find((c: { chain: string }) => c.chain === 'application');
    expect(chain).toMatchObject({ valid: false, broken_at: event!.id, reason: 'hash-mismatch' });
  });

  it('an analyst decides an UNDER_REVIEW verification; the signer’s status call sees it; advisors cannot, nor see the images', async () => {
    const { user } = await throughConsent(UNDER_REVIEW_ID());
    const link = await post(`/applications/${user.id}/contract-links`, { person_type: 'titular' });
    expect(link.statusCode, link.body).toBe(200);
    const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` })).json();
    const sms = outbox.messages.find((m: { body: string }) => m.body.includes('listo para firmar')).body as string;
    const url = new URL(/https?:\/\/\S+/.exec(sms)![0]);
    const bearer = { authorization: `Bearer ${url.searchParams.get('token')}` };
    const photo = createJpeg({ width: 1280, height: 800 });
    const body = multipart(
      { id_front: photo, id_back: photo, selfie: photo },
      { person_type: 'titular', verification_type: 'VERIFICATION' },
    );
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${user.id}/identity-documents`,
      headers: { ...bearer, ...body.headers },
      payload: body.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    clock.advance(t.app.config.IDENTITY_SIMULATOR_DELAY_MS / 1000 + 1);
    await answerSimulatedChecks(t.app);
    const status = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/users/SK/${user.id}/mati-status?verification_type=VERIFICATION&person_type=titular`,
        headers: bearer,
      });
    expect((await status()).json().data.status).toBe('UNDER_REVIEW');

    const detail = (await get(`/applications/${user.id}`)).json().data;
    const check = detail.signers[0].verifications[0];
    expect(check).toMatchObject({ status: 'UNDER_REVIEW', documents: expect.any(Array) });
    const doc = check.documents[0];
    const image = await get(`/applications/${user.id}/identity-documents/${doc.id}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    // The product's own copy of the photo (decision 021): the same picture as a JPEG, not the uploaded bytes.
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 800 });
    expect((await get(`/applications/${user.id}/identity-documents/${doc.id}`, advisor.headers)).statusCode).toBe(403);

    const decide = (payload: Record<string, unknown>, headers = analyst.headers) =>
      post(`/applications/${user.id}/verifications/${check.id}/decision`, payload, headers);
    expect((await decide({ status: 'APPROVED', note: 'Documentos legibles' }, advisor.headers)).statusCode).toBe(403);
    expect((await decide({ status: 'APPROVED', note: '' })).statusCode).toBe(400);
    const decided = await decide({ status: 'APPROVED', note: 'Cédula y selfie coinciden' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await status()).json().data.status).toBe('APPROVED');
    expect((await decide({ status: 'REJECTED', note: 'otra vez' })).statusCode).toBe(409);
    const after = (await get(`/applications/${user.id}`)).json().data;
    expect(after.signers[0]).toMatchObject({ state: 'VERIFIED' });
    expect(after.signers[0].verifications[0]).toMatchObject({
      status: 'APPROVED',
      answered_by: `staff:${analyst.member.id}`,
      note: 'Cédula y selfie coinciden',
    });
    const events = after.timeline.find((c: { chain: string }) => c.chain === 'application').events;
    expect(events.find((e: { type: string }) => e.type === 'identity.review_decided')).toMatchObject({
      actor: `staff:${analyst.member.id}`,
      actor_name: `${analyst.member.name} (analista)`,
    });
    expect(events.find((e: { type: string }) => e.type === 'identity.check_started')).toMatchObject({
      actor_name: 'Firmante o aval',
    });
    expect(events.find((e: { type: string }) => e.type === 'contract.link_issued')).toMatchObject({
      actor: `staff:${analyst.member.id}`,
    });

    // One more attempt only for a signer who used theirs up (issue 26; extra-attempts.test.ts): this
    // one has attempts left, and is approved.
    const before = (await status()).json().data.verifications_left as number;
    const refused = await post(`/applications/${user.id}/signers/${after.signers[0].id}/extra-attempt`, {
      note: 'Cámara dañada',
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('ATTEMPTS_LEFT');
    expect((await status()).json().data.verifications_left).toBe(before);
  });

  it('a bureau query given up after its attempts is retried from the back office and the decision follows', async () => {
    const { user } = await throughConsent(FAILING_BUREAU_ID);
    for (let i = 0; i < 5; i++) {
      clock.advance(3600);
      await runBureauJobs(t.app);
    }
    const [query] = await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, user.id));
    expect(query).toMatchObject({ status: 'FAILED', attempts: 3 });
    analyst = await staffSession(t.app, 'analyst'); // the hours above ended the earlier sessions
    advisor = await staffSession(t.app, 'advisor');
    expect((await get(`/applications/${user.id}`)).json().data).toMatchObject({
      next_step: 'ACCOUNT_BUREAU',
      status: 'WAITING',
    });
    expect((await post(`/applications/${user.id}/bureau-retry`, {}, advisor.headers)).statusCode).toBe(403);
    const retried = await post(`/applications/${user.id}/bureau-retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await post(`/applications/${user.id}/bureau-retry`)).statusCode).toBe(409);
    await runBureauJobs(t.app);
    expect((await get(`/applications/${user.id}`)).json().data).toMatchObject({
      next_step: 'PASSWORD',
      status: 'IN_PROGRESS',
    });
  });

  it('a typed neighbourhood is confirmed or corrected once, the original kept in the audit event as a keyed hash', async () => {
    const typed = await seed(cedula(nextTen()), 'Yocasta', 'ABOUT_STORE');
    await t.app.db
      .update(businessAddresses)
      .set({ neighborhood: 'Detrás del play', neighborhoodTyped: true })
      .where(eq(businessAddresses.userId, typed.id));
    const confirmed = await post(`/applications/${typed.id}/address`, { action: 'confirm' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await post(`/applications/${typed.id}/address`, { action: 'confirm' })).statusCode).toBe(409);

    const other = await seed(cedula(nextTen()), 'Yocasta', 'ABOUT_STORE');
    await t.app.db
      .update(businessAddresses)
      .set({ neighborhood: 'Los Minas Viejo (atrás)', neighborhoodTyped: true })
      .where(eq(businessAddresses.userId, other.id));
    const [sector] = await t.app.db.select().from(catalogNeighborhoods).limit(1);
    const corrected = await post(`/applications/${other.id}/address`, {
      action: 'correct',
      neighborhood_id: sector!.id,
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const detail = (await get(`/applications/${other.id}`)).json().data;
    expect(detail.address).toMatchObject({ neighborhood: sector!.name, neighborhood_typed: false });
    const event = detail.timeline
      .find((c: { chain: string }) => c.chain === 'application')
      .events.find((e: { type: string }) => e.type === 'address.corrected');
    expect(event.payload).toMatchObject({
      typed_hash: t.app.cipher.lookupHash('Los Minas Viejo (atrás)'),
      to: sector!.name,
    });
    expect(JSON.stringify(event.payload)).not.toContain('Los Minas');
    expect(
      (await post(`/applications/${other.id}/address`, { action: 'correct', neighborhood_id: 999999999 })).statusCode,
    ).toBe(404);
  });

  it('a guarantor registered from the back office moves the application and gets the invitation SMS; resent on demand', async () => {
    const user = await seed(cedula(nextTen()), 'Dulce', 'INVENTORY');
    const avalPhone = createPhone();
    const named = await post(`/applications/${user.id}/guarantors`, {
      aval_type: 'PARTNER',
      name: 'Pedro Aval',
      phone_number: avalPhone,
      tax_payer_id: cedula(nextTen()),
    });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().data).toMatchObject({ next_step: 'PARTNER_NIP', status: 'IN_PROGRESS' });
    const avalId = named.json().data.result.aval.id as string;
    const inbox = async () =>
      (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${avalPhone}` })).json().messages as unknown[];
    expect(await inbox()).toHaveLength(1);
    const resent = await post(`/applications/${user.id}/guarantors/${avalId}/invitation`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await inbox()).toHaveLength(2);
    const events = (
      await t.app.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.applicationId, user.id))
        .orderBy(asc(auditEvents.id))
    ).filter((e) => e.actor.startsWith('staff:'));
    expect(events.map((e) => e.type)).toEqual([
      'guarantor.named',
      'guarantor.invitation_sent',
      'guarantor.invitation_resent',
    ]);
    // Named again at the wrong step: the step engine refuses.
    const again = await post(`/applications/${user.id}/guarantors`, {
      aval_type: 'PARTNER',
      name: 'Otro Aval',
      phone_number: createPhone(),
      tax_payer_id: cedula(nextTen()),
    });
    expect(again.statusCode).toBe(409);
  });

  it('every back-office route: 401 without a session, 403 for a role without the permission', async () => {
    const openapi = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(openapi.paths)
      .filter(([path]) => path.startsWith('/api/backoffice/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const fill = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'source' ? 'contact' : name === 'sourceId' ? '1' : randomUUID(),
      );
    /** Which permission each route needs (the test's own table: a new route must be added here). */
    const permission = (method: string, path: string): StaffPermission | 'any staff' | null => {
      // Before a session: the login and its options, the password-link page.
      if (/^\/api\/backoffice\/(session|login-options|password-link(\/password)?)$/.test(path)) return null;
      // Any signed-in person: their second factor and their own security.
      if (path.startsWith('/api/backoffice/session/') || path.startsWith('/api/backoffice/me/')) return 'any staff';
      if (path.startsWith('/api/backoffice/staff')) return 'manageStaff';
      if (path.startsWith('/api/backoffice/advisor-queue')) return 'workAdvisorQueue';
      if (path.startsWith('/api/backoffice/jobs')) return 'readJobs';
      if (path.startsWith('/api/backoffice/retention')) return 'readRetention';
      if (path.startsWith('/api/backoffice/privacy-requests')) return 'privacy';
      if (path.startsWith('/api/backoffice/webhook-endpoints') || path.startsWith('/api/backoffice/partner-keys'))
        return 'manageIntegrations';
      // The policy lab: analysts read, draft and backtest; admins publish, roll back and set the shadow.
      if (/^\/api\/backoffice\/policies\/\{policyId\}\/(publish|activate)$/.test(path)) return 'publishPolicy';
      if (path === '/api/backoffice/policy-shadow' && method === 'PUT') return 'publishPolicy';
      if (path.startsWith('/api/backoffice/polic')) return 'policy';
      if (path.startsWith('/api/backoffice/funnel') || path.startsWith('/api/backoffice/exports')) return 'readReports';
      if (path.includes('/identity-documents/') || path.includes('/bureau-queries/')) return 'readSensitive';
      if (method === 'GET' && path.includes('/contract')) return 'readSensitive';
      if (path.startsWith('/api/backoffice/applications'))
        return method === 'GET' ? 'readApplications' : 'actOnApplications';
      throw new Error(`no permission known for ${method} ${path}: add it to this table`);
    };
    const sessions = Object.fromEntries(
      await Promise.all(STAFF_ROLES.map(async (role) => [role, (await staffSession(t.app, role)).headers] as const)),
    );
    for (const { method, path } of routes) {
      const needed = permission(method, path);
      if (needed === null) continue;
      const url = fill(path);
      const anonymous = await t.app.inject({
        method: method as 'GET',
        url,
        payload: method === 'GET' ? undefined : {},
      });
      expect(anonymous.statusCode, `${method} ${path} without a session`).toBe(401);
      if (needed === 'any staff') continue;
      for (const role of STAFF_ROLES) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: sessions[role],
          payload: method === 'GET' ? undefined : {},
        });
        if (staffMay(role, needed)) expect(res.statusCode, `${method} ${path} as ${role}`).not.toBe(403);
        else expect(res.statusCode, `${method} ${path} as ${role}`).toBe(403);
        expect(res.statusCode, `${method} ${path} as ${role}`).toBeLessThan(500);
      }
    }
  });
});
