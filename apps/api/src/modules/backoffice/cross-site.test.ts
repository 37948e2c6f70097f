import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema.js';
import { createUser } from '../../test/factories.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Issue 26 §3: a back-office write from another site is refused before its handler runs, whatever
 * the cookie's SameSite does (an old browser, a same-site sub-domain, a browser bug). The browser
 * tells where a request comes from in Sec-Fetch-Site and Origin; neither can be set by a page.
 */
describe('back office: cross-site writes are refused (Origin / Sec-Fetch-Site)', () => {
  const t = useTestApp({ PUBLIC_BASE_URL: 'https://provee.example' });

  const HOST = 'provee-api.internal:3000';
  const login = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/backoffice/session',
      headers: { host: HOST, ...headers },
      payload: { email: 'nadie@prestamista.test', password: 'lo-que-sea-123' },
    });

  it('refuses a login from another site (Sec-Fetch-Site) with a Spanish 403', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await login({ 'sec-fetch-site': site, origin: 'https://evil.example' });
      expect(res.statusCode, site).toBe(403);
      expect(res.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
      expect(res.json().readable_message).toMatch(/otro sitio/);
      expect(res.cookies.find((c) => c.name === 'provee_staff')).toBeUndefined();
    }
  });

  it('refuses an Origin that is not the app’s own (no Sec-Fetch-Site: an older browser)', async () => {
    for (const origin of [
      'https://evil.example',
      'null',
      'https://provee.example.evil.example',
      'http://provee.example',
    ])
      expect((await login({ origin })).statusCode, origin).toBe(403);
  });

  it('lets through the app’s own pages (its public address or the address it was called at) and non-browser clients', async () => {
    // A wrong password: the request reached the handler (401), it was not refused on its origin.
    const allowed: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'https://provee.example' },
      { 'sec-fetch-site': 'same-origin', origin: `http://${HOST}` },
      { origin: 'https://provee.example' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of allowed) expect((await login(headers)).statusCode, JSON.stringify(headers)).toBe(401);
  });

  it('a signed-in analyst’s cross-site action reaches no handler and changes nothing; reads are not affected', async () => {
    const { headers } = await staffSession(t.app, 'analyst');
    const user = await createUser(t.app, { nextStep: 'INVENTORY' });
    const events = async () =>
      (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).length;
    const before = await events();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${user.id}/guarantors`,
      headers: { ...headers, host: HOST, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      payload: { aval_type: 'PARTNER', name: 'Intruso Pérez', phone_number: '8095550000', tax_payer_id: '1' },
    });
    expect(res.statusCode).toBe(403);
    expect(await events()).toBe(before);
    const logout = await t.app.inject({
      method: 'DELETE',
      url: '/api/backoffice/session',
      headers: { ...headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(logout.statusCode).toBe(403);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/session',
      headers: { ...headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('covers every write of the back-office API, present and future (the check lives in its scope)', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/backoffice/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .map((method) => method.toUpperCase())
          .filter((method) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
          .map((method) => ({ method, path })),
      );
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const { method, path } of writes) {
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().code, `${method} ${path}`).toBe('CROSS_SITE_REQUEST');
    }
  });
});
