import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, userToken } from './test/factories.js';
import { createPhone, phoneToken } from './test/phone.js';
import { useTestApp } from './test/test-app.js';

/**
 * The inputs of the malformed-input run (issue 8, item 7) that were answered 500 or without the
 * envelope: each must now be a 4xx with { code, message, readable_message }.
 */
type Response = { statusCode: number; json(): unknown };

function expectEnvelope(res: Response, status?: number) {
  if (status !== undefined) expect(res.statusCode).toBe(status);
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  expect(res.statusCode).toBeLessThan(500);
  expect(res.json()).toMatchObject({
    code: expect.any(String),
    message: expect.any(String),
    readable_message: expect.any(String),
  });
}

function expectFieldRefused(res: Response, field: string) {
  expectEnvelope(res, 400);
  expect(res.json()).toMatchObject({
    code: 'VALIDATION_ERROR',
    issues: expect.arrayContaining([expect.objectContaining({ field })]),
  });
}

const NUL = '\u0000';
const INT32_OVER = 2 ** 31;

describe('malformed input', () => {
  const t = useTestApp({ RATE_LIMIT_PER_MINUTE: '10000' });
  let phone: string;
  let phoneAuth: Record<string, string>;
  let userUrl: string;
  let userAuth: Record<string, string>;
  const opsKey = () => ({ 'x-api-key': t.app.config.OPS_API_KEY });

  beforeAll(async () => {
    phone = createPhone();
    phoneAuth = { authorization: `Bearer ${await phoneToken(t.app, phone)}` };
    const user = await createUser(t.app, { nextStep: 'BUSINESS_ADDRESS' });
    userUrl = `/api/v1/users/${user.id}/SK`;
    userAuth = {
      authorization: `Bearer ${userToken(t.app, user)}`,
    };
  });

  const personal = (overrides: Record<string, unknown>) => ({
    account_type_id: 'SK',
    name: 'María',
    lastname: 'Peña',
    dob: '1985-02-28',
    length_of_residency_in_years: 4,
    marital_status: 'MARRIED',
    phone_number: phone,
    utm_source: 'radio',
    ...overrides,
  });
  /** The registration call of the suite's proven phone, with these fields changed. */
  const register = (overrides: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v2/users', headers: phoneAuth, payload: personal(overrides) });
  const address = {
    zip_code: '00000',
    state: 'Distrito Nacional',
    city: 'Santo Domingo',
    neighborhood: 'Gazcue',
    street_name: 'Calle 1',
    street_number: '2',
    apartment_number: '',
  };
  const business = {
    name: 'Colmado',
    business_type: 'COLMADO',
    business_type_other: '',
    sales_average_range_id: 1,
    business_age: 2,
  };
  const lead = () => {
    const now = new Date().toISOString();
    return {
      lead_id: 'lead-1',
      lead_type: 'INTERNAL',
      shopkeeper_phone: phone,
      utm_source: 'a',
      utm_medium: 'b',
      utm_campaign: 'c',
      created_at: now,
      updated_at: now,
    };
  };
  const clientError = {
    level: 'error',
    method: 'GET',
    path: '/api/v1/x',
    status: 500,
    code: 'X',
    message: 'boom',
    request_id: 'r-1',
  };

  it.each(['level', 'method', 'path', 'code', 'message', 'request_id'])(
    'NUL in client-errors %s → 400 on the field',
    async (field) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/client-errors',
        payload: { ...clientError, [field]: `a${NUL}b` },
      });
      expectFieldRefused(res, `body.${field}`);
    },
  );

  it('a client-error message may span lines (tab, line breaks), but not hold other control characters', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      payload: { ...clientError, message: 'línea 1\n\tlínea 2\r\n' },
    });
    expect(ok.statusCode).toBe(204);
    const bell = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      payload: { ...clientError, message: 'a\u0007b' },
    });
    expectFieldRefused(bell, 'body.message');
    const newlineElsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      payload: { ...clientError, path: '/a\nb' },
    });
    expectFieldRefused(newlineElsewhere, 'body.path');
  });

  it.each(['ip_address', 'anonymous_id'])('NUL in reverse-otp %s → 400 on the field', async (field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      payload: { phone_number: createPhone(), [field]: `1.2.3.4${NUL}` },
    });
    expectFieldRefused(res, `body.${field}`);
  });

  it.each([
    'utm_source',
    'utm_name',
    'utm_medium',
    'sales_identifier',
    'name',
    'lastname',
    'maternal_lastname',
    'marital_status',
  ])('NUL in registration %s → 400 on the field', async (field) => {
    const res = await register({ [field]: `x${NUL}` });
    expectFieldRefused(res, `body.${field}`);
  });

  it.each([
    ['DEL', '\u007f'],
    ['C1 NEL', '\u0085'],
    ['C1 APC', '\u009f'],
    ['ESC', '\u001b'],
    ['line feed', '\n'],
  ])('%s in a name → 400', async (_name, character) => {
    const res = await register({ name: `Ma${character}ría` });
    expectFieldRefused(res, 'body.name');
  });

  it.each([INT32_OVER, -(2 ** 31) - 1, 1e300])('kiban_flow_version_id = %d → 400 on the field', async (value) => {
    const res = await register({ kiban_flow_version_id: value });
    expectFieldRefused(res, 'body.kiban_flow_version_id');
  });

  it('an integer out of range says so in Spanish', async () => {
    const res = await register({ kiban_flow_version_id: INT32_OVER });
    expect(res.json()).toMatchObject({
      issues: [{ field: 'body.kiban_flow_version_id', message: 'El número está fuera del rango permitido.' }],
    });
  });

  it('length_of_residency_in_years = 2^31 → 400 on the field', async () => {
    const res = await register({ length_of_residency_in_years: INT32_OVER });
    expectFieldRefused(res, 'body.length_of_residency_in_years');
  });

  it.each(Object.keys(address))('NUL in address %s → 400 on the field', async (field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${userUrl}/businesses/address`,
      headers: userAuth,
      payload: { ...address, [field]: `1${NUL}` },
    });
    expectFieldRefused(res, `body.${field}`);
  });

  it.each(['name', 'business_type', 'business_type_other'])('NUL in business %s → 400 on the field', async (field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${userUrl}/businesses`,
      headers: userAuth,
      payload: { ...business, [field]: `x${NUL}` },
    });
    expectFieldRefused(res, `body.${field}`);
  });

  it.each(['sales_average_range_id', 'business_age'])('business %s = 2^31 → 400 on the field', async (field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${userUrl}/businesses`,
      headers: userAuth,
      payload: { ...business, [field]: INT32_OVER },
    });
    expectFieldRefused(res, `body.${field}`);
  });

  it('NUL in the tax id → 400 on the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${userUrl}/tax_info`,
      headers: userAuth,
      payload: { tax_payer_id: `001${NUL}` },
    });
    expectFieldRefused(res, 'body.tax_payer_id');
  });

  it.each(['lead_id', 'utm_source', 'utm_medium', 'utm_campaign'])(
    'NUL in lead %s → 400 on the field',
    async (field) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/ops/v1/lead-assignment',
        headers: opsKey(),
        payload: { ...lead(), [field]: `x${NUL}` },
      });
      expectFieldRefused(res, `body.${field}`);
    },
  );

  it("every field holding a control character is named, with the screens' message", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${userUrl}/businesses/address`,
      headers: userAuth,
      payload: { ...address, city: `a${NUL}`, street_name: 'b\u0085' },
    });
    expect(res.json().issues).toEqual([
      { field: 'body.city', message: '* No uses emojis ni caracteres especiales.' },
      { field: 'body.street_name', message: '* No uses emojis ni caracteres especiales.' },
    ]);
  });

  it('a lone surrogate (a "\\ud800" escape) → 400 on the field, not a 500 from jsonb (fuzzing suite)', async () => {
    // utm_source goes into the registration's audit payload (jsonb), which refuses the escape.
    for (const value of ['x\udfffy', '\ud800', 'a\ud83d']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { ...phoneAuth, 'content-type': 'application/json' },
        payload: JSON.stringify(personal({ utm_source: value })),
      });
      expectFieldRefused(res, 'body.utm_source');
    }
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...clientError, ['k\udc00']: 1 }),
    });
    expectEnvelope(key, 400);
    // A whole pair (an emoji) is text: the schema's own rules decide.
    const emoji = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      payload: { ...clientError, message: 'falló 😀' },
    });
    expect(emoji.statusCode).toBe(204);
  });

  it('NUL in an object key → 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      payload: { ...clientError, [`x${NUL}`]: 1 },
    });
    expectEnvelope(res, 400);
  });

  it('/ops/v1/audit/%00 → 400 on the path parameter', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ops/v1/audit/%00', headers: opsKey() });
    expectFieldRefused(res, 'params.applicationId');
  });

  it('NUL in a query string → 400 on the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/outbox.json?to=%00' });
    expectFieldRefused(res, 'querystring.to');
  });

  it('a bad percent-encoding in the path (/api/v1/users/%ZZ/SK) → 400 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/%ZZ/SK', headers: userAuth });
    expectEnvelope(res, 400);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a path parameter over 100 characters → 414 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/ops/v1/audit/${'a'.repeat(101)}`, headers: opsKey() });
    expectEnvelope(res, 414);
    expect(res.json()).toMatchObject({ code: 'URI_TOO_LONG' });
  });

  it('malformed JSON, a wrong content type, an unknown path and an unknown method → envelopes', async () => {
    const report = (contentType: string, payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/client-errors', headers: { 'content-type': contentType }, payload });
    expectEnvelope(await report('application/json', '{"level":'), 400);
    expectEnvelope(await report('text/xml', '<a/>'), 415);
    expectEnvelope(await t.app.inject({ method: 'GET', url: '/api/v1/nothing' }), 404);
    expectEnvelope(await t.app.inject({ method: 'DELETE', url: '/api/v1/users/code' }), 404);
  });

  describe('over a real socket', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as { port: number }).port;
    });

    /** Sends raw bytes and reads the whole answer (the server closes the connection). */
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const parse = (answer: string) => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), head: head.toLowerCase(), body: JSON.parse(body) as unknown };
    };

    it('oversized headers → 431 envelope', async () => {
      const answer = parse(await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(answer.status).toBe(431);
      expect(answer.head).toContain('content-type: application/json');
      expect(answer.body).toMatchObject({
        code: 'HEADERS_TOO_LARGE',
        message: expect.any(String),
        readable_message: expect.any(String),
      });
    });

    it('a malformed request line → 400 envelope', async () => {
      const answer = parse(await raw('GARBAGE\r\n\r\n'));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'BAD_REQUEST', readable_message: expect.any(String) });
    });
  });
});
