import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cedulaCheckDigit } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../src/db/schema.js';
import { createJpeg, seedApplication } from '../../src/test/factories.js';
import { multipart } from '../../src/test/multipart.js';
import { createPhone } from '../../src/test/phone.js';
import { staffSession } from '../../src/test/staff.js';
import { createTestApp, manualClock, type TestApp } from '../../src/test/test-app.js';

/**
 * Issue 13, suite 1: every route of the public API that takes a user id, generated from the
 * OpenAPI document, called on one shopkeeper's id by everyone who is not that shopkeeper. Each must
 * be refused (401/403/404) with none of the shopkeeper's data in the answer and nothing changed.
 * A new route with a user id fails this test until it has a request below.
 */
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
/** The photo every identity-photo request sends, and its SHA-256 (the path names it). */
const PHOTO = createJpeg({ width: 640, height: 480 });
const PHOTO_SHA256 = createHash('sha256').update(PHOTO).digest('hex');
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** The route's path with the victim's id, and a photo's kind and hash where it names them. */
const fill = (path: string, id: string) =>
  path.replace('{id}', id).replace('{type}', 'SK').replace('{kind}', 'id_front').replace('{sha256}', PHOTO_SHA256);

/** A request each route would accept from its owner (so a refusal is about who calls, not what). */
function validRequest(
  method: string,
  path: string,
  victimPhone: string,
): { query?: string; body?: unknown; multipart?: boolean; image?: boolean } {
  const key = `${method} ${path}`;
  const address = {
    zip_code: '10101',
    state: 'Distrito Nacional',
    city: 'Santo Domingo de Guzmán',
    neighborhood: 'Gazcue',
    street_name: 'Calle Mercedes',
    street_number: '12',
  };
  const requests: Record<string, { query?: string; body?: unknown; multipart?: boolean; image?: boolean }> = {
    'GET /api/v1/users/{id}/{type}': {},
    'POST /api/v1/users/{id}/{type}/tax_info': { body: { tax_payer_id: cedula(randomTen()) } },
    'POST /api/v1/users/{id}/{type}/businesses/address': { body: address },
    'POST /api/v1/users/{id}/{type}/businesses': {
      body: { name: 'Colmado Prueba', business_type: 'Colmado', sales_average_range_id: 1, business_age: 2 },
    },
    // Going back (issue 27): what the steps saved, and their corrections.
    'GET /api/v1/users/{id}/{type}/registration': {},
    'PUT /api/v1/users/{id}/{type}/personal-data': {
      body: {
        name: 'Otra Persona',
        lastname: 'Pérez',
        dob: '1980-05-05',
        length_of_residency_in_years: 2,
        marital_status: 'SINGLE',
      },
    },
    'PUT /api/v1/users/{id}/{type}/tax_info': { body: { tax_payer_id: cedula(randomTen()) } },
    'PUT /api/v1/users/{id}/{type}/businesses/address': { body: address },
    'POST /api/v1/users/{id}/{type}/nip': {},
    'PUT /api/v1/users/{id}/{type}/nip': { body: { nip: '1234' } },
    'GET /api/v1/users/{id}/{type}/consents': {},
    'PUT /api/v1/users/{id}/{type}/password': { body: { password: '583920', password_confirmation: '583920' } },
    'POST /api/v1/users/{id}/{type}/advisor-events': { body: { contact_type: 'CALL_ADVISER' } },
    'POST /api/v1/users/{id}/{type}/avals': {
      body: {
        aval_type: 'PARTNER',
        name: 'Pedro Aval',
        phone_number: createPhone(),
        tax_payer_id: cedula(randomTen()),
      },
    },
    'POST /api/v1/users/{id}/{type}/aval/nip': { query: `to=${victimPhone}` },
    'PUT /api/v1/users/{id}/{type}/aval/nip': { query: `to=${victimPhone}`, body: { nip: '1234' } },
    'PUT /api/v1/users/{id}/{type}/aval/phone-number': {
      body: { aval_type: 'PARTNER', phone_number: victimPhone, new_phone_number: createPhone() },
    },
    'GET /api/v1/users/{type}/{id}/contract-link': {},
    'GET /api/v1/users/{type}/{id}/mati-status': { query: 'verification_type=VERIFICATION&person_type=titular' },
    'PUT /api/v1/users/{type}/{id}/contract': {
      body: { person_type: 'titular', signature: 'iVBORw0KGgo=', metadata: '{}' },
    },
    'GET /api/v1/users/{type}/{id}/contract': {},
    'GET /api/v1/users/{type}/{id}/contract/evidence': {},
    'POST /api/v1/users/{type}/{id}/identity-documents': { multipart: true },
    'PUT /api/v1/users/{type}/{id}/identity-photos/{kind}/{sha256}': { image: true },
    'GET /api/v1/users/{type}/{id}/identity-photos': {},
    // "Mis datos" (issue 31): the applicant's data and their requests over it.
    'GET /api/v1/users/{id}/{type}/privacy/data': {},
    'GET /api/v1/users/{id}/{type}/privacy/data.pdf': {},
    'GET /api/v1/users/{id}/{type}/privacy/requests': {},
    'POST /api/v1/users/{id}/{type}/privacy/requests': {
      body: { kind: 'opposition', reason: 'No quiero que usen mis datos para publicidad.' },
    },
    'POST /api/v1/users/{type}/{id}/identity-checks': {
      body: {
        person_type: 'titular',
        photos: { id_front: PHOTO_SHA256, id_back: PHOTO_SHA256, selfie: PHOTO_SHA256 },
      },
    },
  };
  const request = requests[key];
  if (!request) throw new Error(`${key} takes a user id and has no request in the authorization matrix: add one`);
  return request;
}

describe('authorization matrix: no one but the shopkeeper reaches their routes', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { clock });
  });
  afterAll(() => t.close());

  it('every route with a user id refuses every other caller, without a byte of the shopkeeper’s data', async () => {
    const victimTaxId = cedula(randomTen());
    const victimPhone = createPhone();
    const victim = await seedApplication(t.app, {
      phone: victimPhone,
      nextStep: 'INVENTORY',
      complete: { taxId: victimTaxId, name: 'Victoria', lastname: 'Quisqueyana' },
    });
    const other = await seedApplication(t.app, {
      phone: createPhone(),
      nextStep: 'INVENTORY',
      complete: { taxId: cedula(randomTen()), name: 'Otra', lastname: 'Persona' },
    });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const issue = (principal: Parameters<typeof t.app.tokens.issue>[0], ttl?: number) =>
      t.app.tokens.issue(principal, ttl).token;
    const victimToken = issue({ kind: 'user', userId: victim.id, phoneE164: victim.phoneE164 }, 60);
    const [payload] = victimToken.split('.');
    const otherToken = issue({ kind: 'user', userId: other.id, phoneE164: other.phoneE164 });
    const expired = issue({ kind: 'user', userId: victim.id, phoneE164: victim.phoneE164 }, 1);
    clock.advance(5);
    const staff = await staffSession(t.app, 'admin');
    const callers: Record<string, Record<string, string>> = {
      'no token': {},
      'an expired token of the shopkeeper': bearer(expired),
      'a forged token (the shopkeeper’s claims, another signature)': bearer(
        `${payload}.${otherToken.split('.').at(-1)}`,
      ),
      'another shopkeeper’s token': bearer(otherToken),
      'another shopkeeper’s phone proof': bearer(issue({ kind: 'phone', phoneE164: other.phoneE164 })),
      'a guarantor’s invitation for another shopkeeper': bearer(
        issue({ kind: 'aval', avalId: randomUUID(), userId: other.id, phoneE164: other.phoneE164 }),
      ),
      'a signing-link token that names no link': bearer(randomBytes(32).toString('base64url')),
      'a staff session (public API)': staff.headers,
    };
    const before = await t.app.db.select().from(users).where(eq(users.id, victim.id));
    const eventsBefore = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, victim.id)))
      .length;

    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => /^\/api\/v\d\//.test(path) && /\{id\}/.test(path) && path.includes('/users/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
    expect(routes.length).toBeGreaterThanOrEqual(19);
    const secrets = [victimPhone, victim.phoneE164, 'Victoria', 'Quisqueyana', victimTaxId, 'Colmado La Esquina'];
    let calls = 0;
    for (const { method, path } of routes) {
      const request = validRequest(method, path, victimPhone);
      const url = `${fill(path, victim.id)}${request.query ? `?${request.query}` : ''}`;
      for (const [who, headers] of Object.entries(callers)) {
        const form = request.multipart
          ? multipart({ id_front: PHOTO, id_back: PHOTO, selfie: PHOTO }, { person_type: 'titular' })
          : request.image
            ? { headers: { 'content-type': 'image/jpeg' }, payload: Buffer.from(PHOTO) }
            : null;
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { ...headers, ...form?.headers },
          payload: form ? form.payload : (request.body as Record<string, unknown> | undefined),
        });
        calls += 1;
        expect([401, 403, 404], `${method} ${path} with ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(
          res.statusCode,
        );
        for (const secret of secrets) expect(res.body, `${method} ${path} with ${who}`).not.toContain(secret);
      }
    }
    // Nothing about the shopkeeper changed, and nothing was recorded in their name.
    expect(await t.app.db.select().from(users).where(eq(users.id, victim.id))).toEqual(before);
    expect((await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, victim.id))).length).toBe(
      eventsBefore,
    );
    // The control: the shopkeeper's own token opens their own routes (a refusal there would make
    // the matrix above prove nothing). The signing routes open only with a signing link.
    const victimNow = bearer(issue({ kind: 'user', userId: victim.id, phoneE164: victim.phoneE164 }));
    for (const { method, path } of routes.filter(({ path }) => path.startsWith('/api/v1/users/{id}/'))) {
      const request = validRequest(method, path, victimPhone);
      const url = `${fill(path, victim.id)}${request.query ? `?${request.query}` : ''}`;
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: victimNow,
        payload: request.body as never,
      });
      expect([401, 403], `${method} ${path} with the shopkeeper's own token: ${res.body.slice(0, 200)}`).not.toContain(
        res.statusCode,
      );
    }
    console.log(
      `authorization matrix: ${routes.length} routes × ${Object.keys(callers).length} callers = ${calls} requests refused`,
    );
  });
});
