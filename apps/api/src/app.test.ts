import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, withTestApp } from './test/test-app.js';
import { webDist } from './test/web-dist.js';
import { productionSealEnv } from './test/production-seal.js';

const expectedDb = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

describe('API conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000' }, (app) => {
      app.post(
        '/api/test/echo',
        { schema: { body: z.object({ name: z.string().min(2), phone_number: z.string() }) } },
        async (request) => ({ ok: request.body.name }),
      );
      app.get('/api/test/boom', async () => {
        throw new Error('secret internal detail');
      });
      app.get('/api/test/users/:phone', async (request) => {
        request.log.info({ body: { phone_number: '8095551234', nip: '1234' } }, 'something with secrets');
        return { ok: true };
      });
    });
  });
  afterAll(() => t.close());

  it('GET /api/health answers ok with the database kind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: expectedDb });
  });

  it('GET /api/v1/config serves the country configuration and the configured values', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.appName).toBe('Provee');
    expect(body.country).toMatchObject({
      code: 'do',
      phonePrefix: '+1',
      currency: 'DOP',
      neighborhoodLabel: 'Sector',
      hasZipCode: false,
      taxId: { label: 'Cédula / RNC', length: 13, format: true, generated: false },
      storeType: 'Colmado',
    });
    for (const key of ['supportChatNumber', 'advisorPhone', 'privacyNoticeUrl', 'appStoreUrl', 'publicSiteUrl']) {
      expect(body[key], key).toEqual(expect.any(String));
    }
  });

  it('GET /api/openapi.json documents the routes from their schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health'].get.responses['200']).toBeDefined();
    expect(
      doc.paths['/api/v1/config'].get.responses['200'].content['application/json'].schema.properties,
    ).toHaveProperty('country');
    expect(doc.paths['/ops/v1/audit/{applicationId}']).toBeDefined();
  });

  it('invalid input → 400 with Spanish field issues', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'a' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({
      code: 'VALIDATION_ERROR',
      readable_message: 'Revisa los datos marcados e intenta de nuevo.',
    });
    const fields = body.issues.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(expect.arrayContaining(['body.name', 'body.phone_number']));
    expect(body.issues.find((issue: { field: string }) => issue.field === 'body.name').message).toMatch(
      /Demasiado pequeño/,
    );
  });

  it('malformed JSON → 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', readable_message: expect.any(String) });
  });

  it('a body over the limit → 413 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'x'.repeat(2 * 1024 * 1024), phone_number: '1' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('unexpected error → generic 500, the detail only in the log with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 'INTERNAL_ERROR',
      message: 'Ocurrió un error inesperado. Intenta de nuevo en unos minutos.',
      readable_message: 'Ocurrió un error inesperado. Intenta de nuevo en unos minutos.',
    });
    expect(res.body).not.toContain('secret internal detail');
    const requestId = res.headers['x-request-id'];
    const logged = t.logs.find((line) => line.msg === 'unexpected error');
    expect(logged?.reqId).toBe(requestId);
    expect(JSON.stringify(logged)).toContain('secret internal detail');
  });

  it('unknown API path → 404 envelope, not the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', readable_message: expect.any(String) });
  });

  it('sets security headers on API answers with a CSP that allows nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    // Frames are refused by the policy's frame-ancestors; X-Frame-Options goes with documents only.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('compresses JSON answers from 1 KB as the browser accepts; small ones go as they are', async () => {
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/cities', headers });
    expect(list.headers['content-encoding']).toBe('br');
    const plain = await t.app.inject({ method: 'GET', url: '/api/v1/cities' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(brotliDecompressSync(list.rawPayload).toString())).toEqual(plain.json());
    expect(list.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('keeps CORS closed by default', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/health',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('logs one line per request, when it is answered: method, masked URL, status and time', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users?phone_number=8095551234' });
    const id = res.headers['x-request-id'];
    const lines = t.logs.filter((line) => line.reqId === id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/v1/users?phone_number=[…]' },
      res: { statusCode: res.statusCode },
    });
    expect(lines[0]!.responseTime).toEqual(expect.any(Number));
  });

  it('never logs phone numbers, PINs or tokens', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/test/users/8095551234?phone_number=8095551234',
      headers: { authorization: 'Bearer super-secret-token' },
    });
    const text = JSON.stringify(t.logs);
    expect(text).toContain('something with secrets');
    expect(text).not.toContain('8095551234');
    expect(text).not.toContain('1234"');
    expect(text).not.toContain('super-secret-token');
  });

  it("never logs a link's token or the names in its query (signing and invitation links)", async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/SK/00000000-0000-4000-8000-000000000000/contract?token=eyJsecretTOKEN.sig&x=1',
    });
    await t.app.inject({
      method: 'GET',
      url: '/send-contract-sign?user_type_id=SK&titular_full_name=Mar%C3%ADa%20Pe%C3%B1a&collateral_full_name=Ram%C3%B3n&token=eyJotherTOKEN',
    });
    // A reverse-OTP session key in the page a second device opens (/home/{phone}?sessionUuid=…).
    await t.app.inject({ method: 'GET', url: '/home/8095551234?sessionUuid=f3c1e2d4-abcd-4ef0-9a1b-c2d3e4f5a6b7' });
    const text = JSON.stringify(t.logs);
    expect(text).toContain('/send-contract-sign?user_type_id=SK&titular_full_name=[…]');
    expect(text).toContain('/home/[…]?sessionUuid=[…]');
    for (const secret of ['eyJsecretTOKEN', 'eyJotherTOKEN', 'Mar%C3%ADa', 'Ram%C3%B3n', 'abcd-4ef0'])
      expect(text).not.toContain(secret);
  });
});

describe('rate limit', () => {
  it('answers 429 with the envelope once the per-minute budget is spent', async () => {
    await withTestApp({ RATE_LIMIT_PER_MINUTE: '2' }, async (t) => {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await t.app.inject({ method: 'GET', url: '/api/v1/config' })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(res.json()).toMatchObject({
        code: 'RATE_LIMITED',
        readable_message: expect.stringMatching(/demasiados intentos/i),
      });
    });
  });
});

describe('country selection', () => {
  it('COUNTRY=mx serves the Mexican configuration', async () => {
    await withTestApp({ COUNTRY: 'mx', APP_NAME: 'Surtido' }, async (t) => {
      const body = (await t.app.inject({ method: 'GET', url: '/api/v1/config' })).json();
      expect(body.appName).toBe('Surtido');
      expect(body.country).toMatchObject({
        code: 'mx',
        currency: 'MXN',
        neighborhoodLabel: 'Colonia',
        hasZipCode: true,
        taxId: { label: 'RFC', generated: true },
      });
    });
  });
});

describe('SPA serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = webDist();
    // An asset large enough to be compressed, with the build's precompressed copy beside it.
    const js = 'console.log("app");'.repeat(50);
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), js);
    writeFileSync(join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(js));
    t = await createTestApp({ WEB_DIST_DIR: dist, APP_NAME: 'Provee "&" <Co>' });
  });
  afterAll(() => t.close());

  it.each(['/', '/home', '/home/8095551234', '/some/unknown/path'])(
    'GET %s renders the SPA with its config',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      const content = /<meta name="app-config" content="([^"]*)">/.exec(res.body)?.[1];
      expect(content).toBeDefined();
      const decoded = content!
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      expect(JSON.parse(decoded).appName).toBe('Provee "&" <Co>');
    },
  );

  it('serves hashed assets pre-compressed and cached for a year', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('a missing asset is a 404, not the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(res.statusCode).toBe(404);
  });

  it('an API path is never answered with the SPA', async () => {
    for (const url of ['/ops/whatever', '/api/nothing', '/api']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe('NOT_FOUND');
    }
  });
});

describe('development tools', () => {
  it('do not exist in production', async () => {
    await withTestApp({ NODE_ENV: 'production', OPS_API_KEY: 'k'.repeat(32), ...productionSealEnv() }, async (t) => {
      for (const url of ['/dev/outbox', '/dev/outbox.json', '/dev/phone']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
      expect(
        (await t.app.inject({ method: 'POST', url: '/dev/reverse-otp/inbound', payload: { from: '+1', text: 'x' } }))
          .statusCode,
      ).toBe(404);
    });
  });

  it('a test seed of a tax id already seeded is a 409 in Spanish, not a 500', async () => {
    await withTestApp({ ENABLE_TEST_FACTORIES: 'true' }, async (t) => {
      const seed = (phone: string) =>
        t.app.inject({
          method: 'POST',
          url: '/dev/test/users',
          payload: { phone_number: phone, next_step: 'INVENTORY', complete: { tax_id: '00114567892' } },
        });
      expect((await seed('8095551234')).statusCode).toBe(201);
      const again = await seed('8095551235');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'TEST_SEED_TAKEN',
        readable_message: 'Ese teléfono o esa cédula ya están en otra solicitud de prueba.',
      });
    });
  });

  it('test factories exist only when enabled', async () => {
    await withTestApp({}, async (t) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/dev/test/users',
        payload: { phone_number: '8095551234', next_step: 'INVENTORY' },
      });
      expect(res.statusCode).toBe(404);
    });
  });
});
