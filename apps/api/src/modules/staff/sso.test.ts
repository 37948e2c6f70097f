import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../test/oidc-provider.js';
import { createStaffMember, sendAuthenticatorCode, staffEventTypes, staffLogin } from '../../test/staff.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { App } from '../../types.js';

const BASE = 'http://localhost:3000';

/**
 * A browser's round trip: /sso/start, the provider's redirects (its cookies kept), back to
 * /sso/callback. Answers where the callback sent the browser and the staff cookie it set.
 */
async function roundTrip(app: App, provider: TestOidcProvider, tamper: (callback: URL) => void = () => {}) {
  const start = await app.inject({ method: 'GET', url: '/api/backoffice/sso/start' });
  expect(start.statusCode, start.body).toBe(303);
  const ssoCookie = start.cookies.find((c) => c.name === 'provee_sso')!;
  expect(ssoCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/backoffice/sso' });
  let location = new URL(start.headers.location as string);
  expect(location.searchParams.get('code_challenge_method')).toBe('S256');
  const jar = new Map<string, string>();
  while (location.origin === provider.issuer) {
    const res = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0]!.split('=');
      jar.set(name!, value ?? '');
    }
    expect([302, 303], await res.clone().text()).toContain(res.status);
    location = new URL(res.headers.get('location')!, location);
  }
  tamper(location);
  const callback = await app.inject({
    method: 'GET',
    url: `${location.pathname}${location.search}`,
    headers: { cookie: `provee_sso=${ssoCookie.value}` },
  });
  expect(callback.statusCode, callback.body).toBe(303);
  const staffCookie = callback.cookies.find((c) => c.name === 'provee_staff');
  return {
    location: callback.headers.location as string,
    cookie: staffCookie ? `provee_staff=${staffCookie.value}` : undefined,
  };
}

/**
 * A test OpenID Connect provider and an app that trusts it (`env` on top), started before the
 * describe block's tests and stopped after them.
 */
function useSso(env: Record<string, string>) {
  let provider: TestOidcProvider | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [`${BASE}/api/backoffice/sso/callback`] });
    t = await createTestApp({
      PUBLIC_BASE_URL: BASE,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      ...env,
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });
  return {
    get app() {
      return t!.app;
    },
    get logs() {
      return t!.logs;
    },
    get provider() {
      return provider!;
    },
  };
}

describe('single sign-on through a real OpenID Connect provider (authorization code + PKCE)', () => {
  const sso = useSso({ OIDC_NAME: 'Prestamista SSO' });

  const signIn = (tamper?: (callback: URL) => void) => roundTrip(sso.app, sso.provider, tamper);

  it('the login screen offers it by name', async () => {
    const res = await sso.app.inject({ method: 'GET', url: '/api/backoffice/login-options' });
    expect(res.json().data).toEqual({ password: true, sso: { name: 'Prestamista SSO' } });
  });

  it('an analyst an admin created signs in by e-mail; the product’s second factor still applies', async () => {
    const member = await createStaffMember(sso.app, 'analyst');
    await staffLogin(sso.app, member.email); // enrols the authenticator app
    sso.provider.signInAs({ email: member.email.toUpperCase() });
    const { location, cookie } = await signIn();
    expect(location).toBe('/backoffice');
    const session = await sso.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: { cookie } });
    expect(session.json().data).toMatchObject({ stage: 'factor', auth_method: 'sso', staff: { id: member.id } });
    const factor = await sendAuthenticatorCode(sso.app, cookie!, member.id);
    expect(factor.statusCode, factor.body).toBe(200);
    expect(factor.json().data).toMatchObject({ stage: 'active', auth_method: 'sso' });
    const types = await staffEventTypes(sso.app, member.id);
    expect(types.slice(-2)).toEqual(['staff.sso_accepted', 'staff.login']);
  });

  it('nobody is made here: an unknown e-mail, an unverified one, or a deactivated account go back to the login', async () => {
    sso.provider.signInAs({ email: 'nadie@prestamista.test' });
    expect(await signIn()).toEqual({ location: '/backoffice/login?sso=unknown', cookie: undefined });
    const member = await createStaffMember(sso.app, 'advisor');
    sso.provider.signInAs({ email: member.email, emailVerified: false });
    expect(await signIn()).toEqual({ location: '/backoffice/login?sso=unverified', cookie: undefined });
  });

  it('a forged or replayed callback opens nothing (state and PKCE are checked)', async () => {
    const member = await createStaffMember(sso.app, 'advisor');
    sso.provider.signInAs({ email: member.email });
    const forged = await signIn((url) => url.searchParams.set('state', 'otro-estado'));
    expect(forged).toEqual({ location: '/backoffice/login?sso=failed', cookie: undefined });
    const noCookie = await sso.app.inject({
      method: 'GET',
      url: '/api/backoffice/sso/callback?code=codigo-secreto&state=estado-secreto',
    });
    expect(noCookie.headers.location).toBe('/backoffice/login?sso=expired');
    // The callback's code and state never reach the log.
    const lines = JSON.stringify(sso.logs.filter((line) => JSON.stringify(line).includes('/sso/callback')));
    expect(lines).toContain('code=[…]&state=[…]');
    expect(lines).not.toMatch(/codigo-secreto|estado-secreto/);
  });

  it('an advisor (no second factor required) is in at once', async () => {
    const member = await createStaffMember(sso.app, 'advisor');
    sso.provider.signInAs({ email: member.email });
    const { cookie } = await signIn();
    const session = await sso.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: { cookie } });
    expect(session.json().data).toMatchObject({ stage: 'active', auth_method: 'sso' });
  });
});

describe('single sign-on only: passwords off, the provider’s own second factor trusted', () => {
  const sso = useSso({ OIDC_ACCEPT_IDP_MFA: 'true', STAFF_PASSWORD_LOGIN: 'false' });

  it('refuses passwords and password links; an analyst whose provider asked for a second factor is in', async () => {
    const member = await createStaffMember(sso.app, 'analyst');
    const password = await sso.app.inject({
      method: 'POST',
      url: '/api/backoffice/session',
      payload: { email: member.email, password: 'una-clave-larga-de-prueba' },
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().code).toBe('PASSWORD_LOGIN_DISABLED');
    const link = await sso.app.inject({
      method: 'POST',
      url: '/api/backoffice/password-link/password',
      payload: { token: 'x'.repeat(43), password: 'una frase cualquiera larga' },
    });
    expect(link.json().code).toBe('PASSWORD_LOGIN_DISABLED');
    // The provider reports a one-time code besides the password.
    sso.provider.signInAs({ email: member.email, amr: ['pwd', 'otp'] });
    const { cookie } = await roundTrip(sso.app, sso.provider);
    const session = await sso.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: { cookie } });
    expect(session.json().data).toMatchObject({ stage: 'active', auth_method: 'sso' });
    expect(session.json().data.step_up_until).not.toBeNull();
  });
});
