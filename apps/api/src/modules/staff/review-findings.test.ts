import { STAFF_MAX_FAILED_LOGINS_PER_DAY } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, staff } from '../../db/schema.js';
import { authenticatorCode, createStaffMember, STAFF_PASSWORD, staffLogin, staffSession } from '../../test/staff.js';
import { createTestApp, manualClock, type TestApp } from '../../test/test-app.js';
import { staffSessionStore } from './session-adapter.js';

/**
 * Issue 26's adversarial review of the staff logins (each failed before its fix): an enrolment
 * stage outliving the owner's enrolment, spraying past the per-address limit, a stolen session
 * locking the owner's factor, a session written back after its account's sessions were ended, the
 * Secure flag lost on a later save, and failures that did different work for a real e-mail.
 */
describe('staff logins: review findings', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-24T15:00:00Z'));
  let ipSeq = 0;
  const newIp = () => `198.51.100.${++ipSeq}`;
  const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
    `provee_staff=${res.cookies.find((c) => c.name === 'provee_staff')!.value}`;
  const login = (email: string, password: string, ip = newIp()) =>
    t.app.inject({ method: 'POST', url: '/api/backoffice/session', payload: { email, password }, remoteAddress: ip });
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { clock });
  });
  afterAll(() => t.close());

  it('a login left at the enrolment stage cannot enrol once the owner has: it logs in again', async () => {
    const member = await createStaffMember(t.app, 'admin');
    const attacker = cookieOf(await login(member.email, STAFF_PASSWORD));
    await staffLogin(t.app, member.email); // the owner enrols their app
    clock.advance(60);
    for (const url of ['/api/backoffice/me/passkeys/options', '/api/backoffice/me/totp']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: attacker, host: 'localhost' } });
      expect(res.statusCode, url).toBe(401);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: { cookie: attacker } })).statusCode,
    ).toBe(401);
  });

  it('an IPv6 network is one address for the lock-out; a success elsewhere does not clear it', async () => {
    const member = await createStaffMember(t.app, 'advisor');
    for (let i = 1; i <= 20; i++)
      await login(`nadie-${i}@prestamista.test`, 'no-es-esta-clave', `2001:db8:7:9::${i.toString(16)}`);
    expect((await login(member.email, STAFF_PASSWORD, '2001:db8:7:9::ff')).statusCode).toBe(429);
    expect((await login(member.email, STAFF_PASSWORD, '2001:db8:7:a::1')).statusCode).toBe(200);

    const ip = newIp();
    const own = await createStaffMember(t.app, 'advisor');
    for (let i = 0; i < 19; i++) await login(`otra-${i}@prestamista.test`, 'no-es-esta-clave', ip);
    expect((await login(own.email, STAFF_PASSWORD, ip)).statusCode).toBe(200); // the attacker's own account
    await login('una-mas@prestamista.test', 'no-es-esta-clave', ip);
    expect((await login(own.email, STAFF_PASSWORD, ip)).statusCode).toBe(429);
    clock.advance(15 * 60 + 1);
  });

  it('an office logging in all day from one address is not locked by its successes', async () => {
    const ip = newIp();
    const people = await Promise.all(Array.from({ length: 25 }, () => createStaffMember(t.app, 'advisor')));
    for (const person of people) expect((await login(person.email, STAFF_PASSWORD, ip)).statusCode).toBe(200);
    for (const person of people) await staffLogin(t.app, person.email); // 25 more, from the tests' own address
  });

  it(`${STAFF_MAX_FAILED_LOGINS_PER_DAY} failures in a day, from as many addresses, stop even an owner with a second factor until a new password`, async () => {
    const { member } = await staffSession(t.app, 'analyst');
    for (let i = 0; i < STAFF_MAX_FAILED_LOGINS_PER_DAY; i++) await login(member.email, `adivinanza-${i}`);
    expect((await login(member.email, STAFF_PASSWORD)).statusCode).toBe(429);
    clock.advance(3600);
    expect((await login(member.email, STAFF_PASSWORD)).statusCode).toBe(429);
    const admin = await staffSession(t.app, 'admin');
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/staff/${member.id}/password-link`,
      headers: admin.headers,
    });
    const token = new URLSearchParams(new URL(issued.json().data.url).hash.slice(1)).get('token')!;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/password-link/password',
      payload: { token, password: 'la frase nueva de la analista' },
    });
    expect(set.statusCode, set.body).toBe(204);
    expect((await login(member.email, 'la frase nueva de la analista')).json().data.stage).toBe('factor');
  });

  it('five wrong step-up codes from a stolen session lock that session, not the owner', async () => {
    const { member, headers } = await staffSession(t.app, 'analyst');
    for (let i = 0; i < 6; i++)
      await t.app.inject({
        method: 'POST',
        url: '/api/backoffice/session/factor',
        headers,
        payload: { method: 'totp', code: `11111${i}` },
      });
    clock.advance(31);
    const owner = await login(member.email, STAFF_PASSWORD);
    const code = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/session/factor',
      headers: { cookie: cookieOf(owner) },
      payload: { method: 'totp', code: authenticatorCode(t.app, member.id) },
    });
    expect(code.statusCode, code.body).toBe(200);
  });

  it('a session written after its account’s sessions were ended (a request in flight) reads as none', async () => {
    const { member } = await staffSession(t.app, 'analyst');
    const [before] = await t.app.db.select().from(staff).where(eq(staff.id, member.id));
    const admin = await staffSession(t.app, 'admin');
    await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/staff/${member.id}/reset-factors`,
      headers: admin.headers,
    });
    // What a step-up racing the reset writes: a renewed session carrying the login's epoch.
    const store = staffSessionStore(t.app);
    await new Promise<void>((resolve, reject) =>
      store.set(
        'una-sesion-renovada-tarde',
        { staffId: member.id, stage: 'active', epoch: before!.sessionEpoch, fresh: true } as never,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    const read = await new Promise((resolve) =>
      store.get('una-sesion-renovada-tarde', (_error, value) => resolve(value)),
    );
    expect(read).toBeNull();
  });

  it('the cookie stays Secure on every save over https, a passkey challenge included', async () => {
    const behindTls = await createTestApp({ TRUST_PROXY: '1' }, undefined, { database: t.database });
    try {
      const member = await createStaffMember(behindTls.app, 'advisor');
      const https = { 'x-forwarded-proto': 'https', host: 'localhost' };
      const first = await behindTls.app.inject({
        method: 'POST',
        url: '/api/backoffice/session',
        payload: { email: member.email, password: STAFF_PASSWORD },
        headers: https,
      });
      const options = await behindTls.app.inject({
        method: 'POST',
        url: '/api/backoffice/me/passkeys/options',
        headers: { ...https, cookie: cookieOf(first) },
      });
      expect(options.statusCode, options.body).toBe(200);
      expect(options.cookies.find((c) => c.name === 'provee_staff')).toMatchObject({ secure: true });
    } finally {
      await behindTls.app.close();
    }
  });

  it('a wrong password does the same database work for an unknown e-mail as for a real one', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const unknown = `nadie-${Date.now()}@prestamista.test`;
    const count = async () => (await t.app.db.select({ id: auditEvents.id }).from(auditEvents)).length;
    const before = await count();
    await login(member.email, 'no-es-la-clave');
    const afterReal = await count();
    await login(unknown, 'no-es-la-clave');
    expect(afterReal - before).toBe(1);
    expect((await count()) - afterReal).toBe(1);
  });
});
