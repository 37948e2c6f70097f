import { createHash } from 'node:crypto';
import { anonymousId, cedulaCheckDigit } from '@provee/domain';
import { desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, smsOutbox } from '../../src/db/schema.js';
import { openContractPdf } from '../../src/modules/signing/index.js';
import { HSTS } from '../../src/plugins/external/security.js';
import { circuloForTests, consentAsCirculoPerson } from '../../src/test/circulo.js';
import { createApplication, createJpeg, userAuth } from '../../src/test/factories.js';
import { multipart } from '../../src/test/multipart.js';
import { createPhone } from '../../src/test/phone.js';
import { consentWithOfferedPin, sendLinkFromBackOffice } from '../../src/test/signer.js';
import { createPartnerKey, createWebhookEndpoint } from '../../src/test/lender.js';
import { staffSession } from '../../src/test/staff.js';
import { createTestApp, type TestApp } from '../../src/test/test-app.js';
import { webDist } from '../../src/test/web-dist.js';

/**
 * Issue 13, suite 7 (hygiene), the headers: CSP self-only, HSTS over https only, no-store on every
 * answer with personal data (every GET route of the OpenAPI document, called as its owner), and
 * closed CORS. The e2e half (logs and database dumps) is scripts/reliability/hygiene.mjs.
 * hardening.test.ts covers the no-store default on errors, 404s and the /dev outbox.
 */
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const EVIL = 'https://evil.example';

/** Directives of a Content-Security-Policy header, by name. */
function csp(header: unknown): Map<string, string[]> {
  expect(typeof header, 'a Content-Security-Policy header').toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** Cache-Control's directives (`private, no-store` → ['private', 'no-store']). */
const cacheDirectives = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((directive) => directive.trim().toLowerCase());

describe('suite 7: security headers and closed CORS', () => {
  /** Behind one proxy (TRUST_PROXY=1), with the SPA, the PIN shown in the answer (NIP_PREFILL). */
  let t: TestApp;
  /** Direct (TRUST_PROXY=false), with one allowed origin: the control of the CORS checks. */
  let direct: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      WEB_DIST_DIR: webDist(),
      TRUST_PROXY: '1',
      NIP_PREFILL: 'true',
      BUREAU_SYNC_WAIT_MS: '2000',
    });
    direct = await createTestApp({ WEB_DIST_DIR: webDist(), CORS_ORIGINS: 'https://provee.example' });
  });
  afterAll(async () => {
    await t?.close();
    await direct?.close();
  });

  const get = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers });

  it('CSP: self only on the HTML and an asset; nothing at all on API answers and errors of the API, back office and ops', async () => {
    const answers = {
      html: await get(t, '/home'),
      asset: await get(t, '/assets/app-abc123.js'),
      api: await get(t, '/api/v1/config'),
      apiError: await get(t, '/api/v1/users/not-a-uuid/SK'),
      backoffice: await get(t, '/api/backoffice/applications'),
      ops: await get(t, '/ops/v1/audit/x'),
      notFound: await get(t, '/api/v1/nothing'),
    };
    expect(answers.html.statusCode).toBe(200);
    expect(answers.html.headers['content-type']).toMatch(/^text\/html/);
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers['x-content-type-options'], name).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], name).toBe('same-origin');
      const policy = csp(res.headers['content-security-policy']);
      if (name !== 'html' && name !== 'asset') {
        // An API answer is never a document: nothing may load from it, nothing may frame it.
        expect([...policy], name).toEqual([
          ['default-src', ["'none'"]],
          ['frame-ancestors', ["'none'"]],
        ]);
        continue;
      }
      for (const directive of ['default-src', 'script-src', 'style-src', 'connect-src', 'font-src', 'base-uri'])
        expect(policy.get(directive), `${name}: ${directive}`).toEqual(["'self'"]);
      expect(policy.get('form-action'), name).toEqual(["'self'"]);
      for (const directive of ['frame-ancestors', 'object-src', 'script-src-attr', 'frame-src'])
        expect(policy.get(directive), `${name}: ${directive}`).toEqual(["'none'"]);
      // Nothing from elsewhere and nothing inline: only the page's own origin, and data:/blob: images.
      const allowed = new Set(["'self'", "'none'", 'data:', 'blob:']);
      for (const [directive, sources] of policy)
        for (const source of sources) expect(allowed.has(source), `${name}: ${directive} ${source}`).toBe(true);
    }
    // What only a document uses travels with documents; an API answer is trimmed to what it needs.
    for (const name of ['html', 'asset'] as const) {
      expect(answers[name].headers['x-frame-options'], name).toBe('SAMEORIGIN');
      expect(answers[name].headers['referrer-policy'], name).toBe('no-referrer');
      expect(answers[name].headers['cross-origin-opener-policy'], name).toBe('same-origin');
    }
    for (const name of ['api', 'apiError', 'backoffice', 'ops', 'notFound'] as const) {
      const headers = answers[name].headers;
      expect(headers['content-type'], name).toMatch(/^application\/json/);
      for (const trimmed of ['x-frame-options', 'referrer-policy', 'x-xss-protection', 'x-ratelimit-limit'])
        expect(headers[trimmed], `${name}: ${trimmed}`).toBeUndefined();
    }
  });

  it('HSTS over https (a trusted proxy says so), never over plain http or on a spoofed header', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    for (const url of ['/home', '/api/v1/config', '/api/v1/users/not-a-uuid/SK', '/ops/v1/audit/x']) {
      expect((await get(t, url, https)).headers['strict-transport-security'], `https ${url}`).toBe(HSTS);
      expect((await get(t, url)).headers['strict-transport-security'], `http ${url}`).toBeUndefined();
      expect(
        (await get(t, url, { 'x-forwarded-proto': 'http' })).headers['strict-transport-security'],
        `http via proxy ${url}`,
      ).toBeUndefined();
      // Without TRUST_PROXY the header is anyone's to send: not trusted.
      expect((await get(direct, url, https)).headers['strict-transport-security'], `spoofed ${url}`).toBeUndefined();
    }
    expect(HSTS).toMatch(/^max-age=31536000; includeSubDomains$/);
  });

  /**
   * Every GET route of the OpenAPI document. Those that answer personal data (or a token, or the
   * caller's address) get a request from their owner that succeeds; the others are public
   * reference data, listed here. A new GET route fails until it is put in one of the two.
   */
  /** Asked of an application a real bureau answered: its own test below. */
  const BUREAU_RAW_ROUTE = 'GET /api/backoffice/applications/{applicationId}/bureau-queries/{queryId}/raw';
  const PUBLIC = new Set([
    'GET /api/health',
    'GET /api/v1/config',
    'GET /api/v1/states',
    'GET /api/v1/states/{id}/cities',
    'GET /api/v1/cities',
    'GET /api/v1/cities/{id}/neighborhoods',
    'GET /api/v1/zip-codes/{code}',
    'GET /api/v1/business-types',
    'GET /api/v1/sales-ranges',
    'GET /api/v1/consents/text',
    'GET /api/backoffice/login-options',
  ]);

  it('Cache-Control: no-store on every GET route that answers personal data, each called by its owner', async () => {
    const app = t.app;
    // A shopkeeper pre-approved through the PIN (consents exist), as in the real journey.
    const taxId = cedula(randomTen());
    const user = await createApplication(app, { taxId });
    const auth = userAuth(app, user);
    const consent = await consentWithOfferedPin(app, user);
    expect(consent.json().data, consent.body).toMatchObject({ next_step: 'PASSWORD' });
    const smsLink = async (marker: string) => {
      const [sms] = await app.db
        .select()
        .from(smsOutbox)
        .where(like(smsOutbox.body, `%${marker}%`))
        .orderBy(desc(smsOutbox.id))
        .limit(1);
      return new URL(/https?:\/\/\S+/.exec(sms!.body)![0]).searchParams.get('token')!;
    };

    // The signing link an analyst sends, and the identity photos the signer uploads with it.
    const admin = await staffSession(app, 'admin');
    const link = await sendLinkFromBackOffice(app, user.id);
    expect(link.statusCode, link.body).toBe(200);
    const signer = { authorization: `Bearer ${await smsLink('send-contract-sign')}` };
    const photo = createJpeg({ width: 640, height: 480 });
    const form = multipart(
      { id_front: photo, id_back: photo, selfie: photo },
      { person_type: 'titular', verification_type: 'VERIFICATION' },
    );
    const uploaded = await app.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${user.id}/identity-documents`,
      headers: { ...signer, ...form.headers },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const detail = await app.inject({
      method: 'GET',
      url: `/api/backoffice/applications/${user.id}`,
      headers: admin.headers,
    });
    const documentId = detail.json().data.signers[0].verifications[0].documents[0].id as string;

    // A guarantor named on another shopkeeper, with the invitation link the SMS carried.
    const other = await createApplication(app, { taxId: cedula(randomTen()), nextStep: 'INVENTORY' });
    const named = await app.inject({
      method: 'POST',
      url: `/api/v1/users/${other.id}/SK/avals`,
      headers: userAuth(app, other),
      payload: {
        aval_type: 'PARTNER',
        name: 'Ramón Pérez',
        phone_number: createPhone(),
        tax_payer_id: cedula(randomTen()),
      },
    });
    expect(named.statusCode, named.body).toBe(200);
    const guarantor = { authorization: `Bearer ${await smsLink('verify-aval-phone')}` };

    const search = await app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=Gazcue' });
    const placeId = search.json().data[0]?.place_id as string;
    expect(placeId, search.body).toBeTruthy();
    const today = app.clock().toISOString().slice(0, 10);
    const opsKey = { 'x-api-key': app.config.OPS_API_KEY };
    // The lender's systems: a webhook endpoint an admin added, a partner key that may read everything.
    const endpoint = await createWebhookEndpoint(app, 'http://127.0.0.1:9/hooks', { headers: admin.headers });
    const lender = {
      authorization: `Bearer ${(await createPartnerKey(app, ['applications:read', 'personal_data:read', 'documents:read'], { headers: admin.headers })).token}`,
    };

    // A privacy request the shopkeeper filed (issue 31): its record, like their data, is personal.
    const filed = await app.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/SK/privacy/requests`,
      headers: auth,
      payload: { kind: 'opposition', reason: 'No quiero recibir publicidad.' },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const privacyRequestId = filed.json().data.id as string;
    // A draft of the credit policy and a backtest of it.
    const draft = await app.inject({
      method: 'POST',
      url: '/api/backoffice/policies',
      headers: admin.headers,
      payload: {},
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const policyId = draft.json().data.id as string;
    const backtest = await app.inject({
      method: 'POST',
      url: `/api/backoffice/policies/${policyId}/backtests`,
      headers: admin.headers,
      payload: { from: today, to: today },
    });
    expect(backtest.statusCode, backtest.body).toBe(200);
    const backtestId = backtest.json().data.id as string;

    const owners: Record<string, { url: string; headers?: Record<string, string> }> = {
      'GET /api/v1/ip': { url: '/api/v1/ip' },
      'GET /api/v1/users': {
        url: `/api/v1/users?phone_number=${user.phone}&anonymous_id=${anonymousId(user.phone)}`,
        headers: auth,
      },
      'GET /api/v1/users/{id}/{type}': { url: `/api/v1/users/${user.id}/SK`, headers: auth },
      // What a shopkeeper types while looking for the business's address.
      'GET /api/v1/addresses/search': { url: '/api/v1/addresses/search?q=Gazcue' },
      'GET /api/v1/addresses/{placeId}': { url: `/api/v1/addresses/${encodeURIComponent(placeId)}` },
      'GET /api/v1/users/{id}/{type}/registration': { url: `/api/v1/users/${user.id}/SK/registration`, headers: auth },
      'GET /api/v1/users/{id}/{type}/consents': { url: `/api/v1/users/${user.id}/SK/consents`, headers: auth },
      'GET /api/v1/users/aval/invitation': { url: '/api/v1/users/aval/invitation', headers: guarantor },
      'GET /api/v1/users/{type}/{id}/contract-link': {
        url: `/api/v1/users/SK/${user.id}/contract-link`,
        headers: signer,
      },
      'GET /api/v1/users/{type}/{id}/mati-status': {
        url: `/api/v1/users/SK/${user.id}/mati-status?verification_type=VERIFICATION&person_type=titular`,
        headers: signer,
      },
      'GET /api/v1/users/{type}/{id}/identity-photos': {
        url: `/api/v1/users/SK/${user.id}/identity-photos`,
        headers: signer,
      },
      'GET /api/v1/users/{type}/{id}/contract': { url: `/api/v1/users/SK/${user.id}/contract`, headers: signer },
      'GET /api/v1/users/{type}/{id}/contract/evidence': {
        url: `/api/v1/users/SK/${user.id}/contract/evidence`,
        headers: signer,
      },
      'GET /api/backoffice/session': { url: '/api/backoffice/session', headers: admin.headers },
      'GET /api/backoffice/staff': { url: '/api/backoffice/staff', headers: admin.headers },
      'GET /api/backoffice/me/factors': { url: '/api/backoffice/me/factors', headers: admin.headers },
      'GET /api/backoffice/applications': {
        url: `/api/backoffice/applications?q=${user.phone}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/applications/{applicationId}': {
        url: `/api/backoffice/applications/${user.id}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/applications/{applicationId}/timeline': {
        url: `/api/backoffice/applications/${user.id}/timeline?chain=application&before=${Number.MAX_SAFE_INTEGER}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/applications/{applicationId}/identity-documents/{documentId}': {
        url: `/api/backoffice/applications/${user.id}/identity-documents/${documentId}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/applications/{applicationId}/contract': {
        url: `/api/backoffice/applications/${user.id}/contract`,
        headers: admin.headers,
      },
      'GET /api/backoffice/applications/{applicationId}/contract/evidence': {
        url: `/api/backoffice/applications/${user.id}/contract/evidence`,
        headers: admin.headers,
      },
      'GET /api/backoffice/advisor-queue': { url: '/api/backoffice/advisor-queue', headers: admin.headers },
      'GET /api/backoffice/funnel': { url: `/api/backoffice/funnel?from=${today}&to=${today}`, headers: admin.headers },
      'GET /api/backoffice/jobs': { url: '/api/backoffice/jobs', headers: admin.headers },
      'GET /api/backoffice/exports/applications.csv': {
        url: `/api/backoffice/exports/applications.csv?from=${today}&to=${today}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/exports/consents.csv': {
        url: `/api/backoffice/exports/consents.csv?from=${today}&to=${today}`,
        headers: admin.headers,
      },
      'GET /ops/v1/audit/{applicationId}': { url: `/ops/v1/audit/${user.id}`, headers: opsKey },
      'GET /api/backoffice/webhook-endpoints': { url: '/api/backoffice/webhook-endpoints', headers: admin.headers },
      'GET /api/backoffice/webhook-endpoints/{endpointId}/sends': {
        url: `/api/backoffice/webhook-endpoints/${endpoint.id}/sends`,
        headers: admin.headers,
      },
      'GET /api/backoffice/partner-keys': { url: '/api/backoffice/partner-keys', headers: admin.headers },
      'GET /api/v1/users/{id}/{type}/privacy/data': { url: `/api/v1/users/${user.id}/SK/privacy/data`, headers: auth },
      'GET /api/v1/users/{id}/{type}/privacy/data.pdf': {
        url: `/api/v1/users/${user.id}/SK/privacy/data.pdf`,
        headers: auth,
      },
      'GET /api/v1/users/{id}/{type}/privacy/requests': {
        url: `/api/v1/users/${user.id}/SK/privacy/requests`,
        headers: auth,
      },
      'GET /api/backoffice/privacy-requests': { url: '/api/backoffice/privacy-requests', headers: admin.headers },
      'GET /api/backoffice/privacy-requests/{requestId}': {
        url: `/api/backoffice/privacy-requests/${privacyRequestId}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/retention': { url: '/api/backoffice/retention', headers: admin.headers },
      // The policy lab: a backtest lists the applications whose outcome would flip.
      'GET /api/backoffice/policies': { url: '/api/backoffice/policies', headers: admin.headers },
      'GET /api/backoffice/policies/{policyId}': {
        url: `/api/backoffice/policies/${policyId}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/policy-backtests/{backtestId}': {
        url: `/api/backoffice/policy-backtests/${backtestId}`,
        headers: admin.headers,
      },
      'GET /api/backoffice/policy-shadow': { url: '/api/backoffice/policy-shadow', headers: admin.headers },
      'GET /partner/v1/applications': { url: '/partner/v1/applications', headers: lender },
      'GET /partner/v1/applications/{applicationId}': { url: `/partner/v1/applications/${user.id}`, headers: lender },
      'GET /partner/v1/applications/{applicationId}/contract': {
        url: `/partner/v1/applications/${user.id}/contract`,
        headers: lender,
      },
      'GET /partner/v1/applications/{applicationId}/contract/evidence': {
        url: `/partner/v1/applications/${user.id}/contract/evidence`,
        headers: lender,
      },
      'GET /partner/v1/events': { url: `/partner/v1/events?application_id=${user.id}`, headers: lender },
    };

    const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => method === 'get')
        .map(() => `GET ${path}`),
    );
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const unlisted = routes.filter((route) => !PUBLIC.has(route) && !owners[route] && route !== BUREAU_RAW_ROUTE);
    expect(unlisted, 'GET routes with no owner request here and not listed as public: add them').toEqual([]);
    const gone = Object.keys(owners).filter((route) => !routes.includes(route));
    expect(gone, 'requests for routes the OpenAPI document no longer has').toEqual([]);

    let personal = 0;
    for (const route of routes.filter((route) => owners[route])) {
      const { url, headers = {} } = owners[route]!;
      const res = await get(t, url, headers);
      // A refusal is no-store anyway (errors.ts): only a real answer proves the route's own caching.
      expect(res.statusCode, `${route}: ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(200);
      expect(cacheDirectives(res.headers['cache-control']), `${route} (${res.headers['cache-control']})`).toContain(
        'no-store',
      );
      personal += 1;
    }
    // The public reference data may be cached, and carries nothing of the shopkeeper.
    for (const route of routes.filter((route) => PUBLIC.has(route) && !route.includes('{'))) {
      const res = await get(t, route.slice(4));
      expect(res.statusCode, route).toBe(200);
      for (const secret of [user.phone, taxId, user.id]) expect(res.body, route).not.toContain(secret);
    }
    console.log(`hygiene: ${personal} GET routes with personal data answer no-store; ${PUBLIC.size} are public`);
  });

  it('Cache-Control: no-store on a real bureau’s answer as received (Círculo’s stand-in; the simulator keeps none)', async () => {
    const circulo = await circuloForTests();
    const mx = await createTestApp({ ...circulo.env, BUREAU_SYNC_WAIT_MS: '5000' });
    try {
      const { user } = await consentAsCirculoPerson(mx.app, '800101');
      const admin = await staffSession(mx.app, 'admin');
      const detail = await get(mx, `/api/backoffice/applications/${user.id}`, admin.headers);
      const queryId = detail.json().data.bureau_queries[0].id as string;
      const res = await get(mx, `/api/backoffice/applications/${user.id}/bureau-queries/${queryId}/raw`, admin.headers);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(cacheDirectives(res.headers['cache-control'])).toContain('no-store');
    } finally {
      await mx.close();
      await circulo.standIn.close();
    }
  });

  it('closed CORS: no Access-Control-Allow-Origin for another site, preflight or simple, anywhere', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const admin = await staffSession(t.app, 'admin');
    const preflight = (app: TestApp, url: string, method: string, origin = EVIL) =>
      app.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization, content-type, x-api-key',
        },
      });
    const targets: [string, string, Record<string, string>][] = [
      ['/home', 'GET', {}],
      ['/api/v1/users/code', 'POST', {}],
      [`/api/v1/users/${user.id}/SK`, 'GET', userAuth(t.app, user)],
      ['/api/backoffice/session', 'POST', {}],
      ['/api/backoffice/applications', 'GET', admin.headers],
      [`/ops/v1/audit/${user.id}`, 'GET', { 'x-api-key': t.app.config.OPS_API_KEY }],
      ['/ops/v1/lead-assignment', 'POST', {}],
    ];
    for (const app of [t, direct]) {
      for (const [url, method, headers] of targets) {
        const answers = {
          preflight: await preflight(app, url, method),
          simple: await app.app.inject({ method: 'GET', url, headers: { ...headers, origin: EVIL } }),
        };
        for (const [kind, res] of Object.entries(answers)) {
          expect(res.headers['access-control-allow-origin'], `${kind} ${method} ${url}`).toBeUndefined();
          expect(res.headers['access-control-allow-credentials'], `${kind} ${method} ${url}`).toBeUndefined();
        }
      }
    }
    // The control: an origin the lender allowed does get the header, so the checks above can fail.
    const allowed = await preflight(direct, '/api/v1/users/code', 'POST', 'https://provee.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://provee.example');
  });
});

/**
 * Defect found by the suite's database dump: the contract PDFs (which print every party's name, tax
 * id and phone) were stored in the clear, so a copy of the database had every signer's tax id.
 */
describe('suite 7: the contract PDFs are encrypted at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' });
  });
  afterAll(() => t?.close());

  it('the stored PDF is ciphertext holding no tax id; the link and the back office serve the PDF of the recorded hash', async () => {
    const app = t.app;
    const taxId = cedula(randomTen());
    const user = await createApplication(app, { taxId });
    await consentWithOfferedPin(app, user);
    const link = await sendLinkFromBackOffice(app, user.id);
    expect(link.statusCode, link.body).toBe(200);
    const admin = await staffSession(app, 'admin');

    const [row] = await app.db.select().from(contracts).where(eq(contracts.userId, user.id));
    const stored = Buffer.from(row!.unsignedPdf);
    expect(stored.subarray(0, 5).toString('latin1')).not.toBe('%PDF-');
    expect(stored.toString('latin1')).not.toContain(taxId.slice(3, 10));
    const pdf = await openContractPdf(app, app.db, user.id, row!.unsignedPdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(row!.unsignedSha256);

    const served = await app.inject({
      method: 'GET',
      url: `/api/backoffice/applications/${user.id}/contract`,
      headers: admin.headers,
    });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(pdf)).toBe(true);

    // A PDF stored before the encryption (plain bytes, same hash) is still served as it is.
    await app.db.update(contracts).set({ unsignedPdf: pdf }).where(eq(contracts.id, row!.id));
    const legacy = await app.inject({
      method: 'GET',
      url: `/api/backoffice/applications/${user.id}/contract`,
      headers: admin.headers,
    });
    expect(legacy.rawPayload.equals(pdf)).toBe(true);
  });
});
