import { STAFF_RECOVERY_CODE_COUNT } from '@provee/domain';
import { asc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, staffSessions, staffTotp } from '../../db/schema.js';
import { createTestApp, manualClock, type TestApp } from '../../test/test-app.js';
import {
  authenticatorCode,
  createStaffMember,
  rememberAuthenticator,
  STAFF_PASSWORD,
  staffEventTypes,
  staffLogin,
  staffSession,
} from '../../test/staff.js';

const cookieOf = (res: { cookies: { name: string; value: string }[] }, previous: string) => {
  const cookie = res.cookies.find((c) => c.name === 'provee_staff');
  return cookie ? `provee_staff=${cookie.value}` : previous;
};

describe('back-office second factor: enrolment, login, recovery, step-up, reset', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-24T09:00:00Z'));
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url: `/api/backoffice${url}`, headers: cookie ? { cookie } : {}, payload });
  const passwordStep = async (email: string) => {
    const res = await call('POST', '/session', undefined, { email, password: STAFF_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return { res, cookie: cookieOf(res, '') };
  };
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { clock });
  });
  afterAll(() => t.close());

  it('an analyst’s first login enrols an authenticator app (QR + key), then gets 10 recovery codes once', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const { res, cookie } = await passwordStep(member.email);
    expect(res.json().data).toMatchObject({ stage: 'enrol', staff: { must_enrol: true, second_factor: false } });
    // Nothing of the back office opens before the enrolment.
    expect((await call('GET', '/applications', cookie)).statusCode).toBe(401);
    const started = await call('POST', '/me/totp', cookie);
    expect(started.statusCode, started.body).toBe(200);
    const { secret, otpauth_uri: uri } = started.json().data;
    expect(uri).toMatch(/^otpauth:\/\/totp\/Provee:analyst-.*\?.*secret=[A-Z2-7]+/);
    expect(uri).toContain(`secret=${secret}`);
    // The secret is kept encrypted.
    const [row] = await t.app.db.select().from(staffTotp).where(eq(staffTotp.staffId, member.id));
    expect(Buffer.from(row!.secretEncrypted).toString('latin1')).not.toContain(secret);
    const wrong = await call('POST', '/me/totp/confirm', cookie, { code: '000000' });
    expect(wrong.statusCode).toBe(401);
    rememberAuthenticator(member.id, secret);
    const confirmed = await call('POST', '/me/totp/confirm', cookie, { code: authenticatorCode(t.app, member.id) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { session, recovery_codes: codes } = confirmed.json().data;
    expect(session).toMatchObject({ stage: 'active', staff: { second_factor: true, must_enrol: false } });
    expect(codes).toHaveLength(STAFF_RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(STAFF_RECOVERY_CODE_COUNT);
    // The enrolment gave a new session id; the one of the password step opens nothing.
    const active = cookieOf(confirmed, cookie);
    expect(active).not.toBe(cookie);
    expect((await call('GET', '/applications', cookie)).statusCode).toBe(401);
    expect((await call('GET', '/applications', active)).statusCode).toBe(200);
    // A second app cannot replace the first without an admin.
    expect((await call('POST', '/me/totp', active)).statusCode).toBe(409);
  });

  it('later logins need a code from the app; a code works once, even when sent twice at once', async () => {
    const { member } = await staffSession(t.app, 'analyst');
    clock.advance(60);
    const { res, cookie } = await passwordStep(member.email);
    expect(res.json().data).toMatchObject({ stage: 'factor', factors: ['totp', 'recovery_code'] });
    expect((await call('GET', '/applications', cookie)).statusCode).toBe(401);
    const code = authenticatorCode(t.app, member.id);
    const other = await passwordStep(member.email);
    const count = (types: string[], type: string) => types.filter((x) => x === type).length;
    const before = await staffEventTypes(t.app, member.id);
    const [a, b] = await Promise.all([
      call('POST', '/session/factor', cookie, { method: 'totp', code }),
      call('POST', '/session/factor', other.cookie, { method: 'totp', code }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
    const winner = a.statusCode === 200 ? cookieOf(a, cookie) : cookieOf(b, other.cookie);
    expect((await call('GET', '/applications', winner)).statusCode).toBe(200);
    // The two answers race, so their events may commit in either order: one of each.
    const after = await staffEventTypes(t.app, member.id);
    expect(count(after, 'staff.factor_failed') - count(before, 'staff.factor_failed')).toBe(1);
    expect(count(after, 'staff.login') - count(before, 'staff.login')).toBe(1);
  });

  it('a recovery code stands in for the app once', async () => {
    const member = await createStaffMember(t.app, 'admin');
    const first = await passwordStep(member.email);
    const started = await call('POST', '/me/totp', first.cookie);
    rememberAuthenticator(member.id, started.json().data.secret);
    const codes = (
      await call('POST', '/me/totp/confirm', first.cookie, { code: authenticatorCode(t.app, member.id) })
    ).json().data.recovery_codes as string[];
    const { cookie } = await passwordStep(member.email);
    const typed = codes[3]!.toLowerCase().replace('-', ' ');
    const used = await call('POST', '/session/factor', cookie, { method: 'recovery_code', code: typed });
    expect(used.statusCode, used.body).toBe(200);
    const again = await passwordStep(member.email);
    expect(
      (await call('POST', '/session/factor', again.cookie, { method: 'recovery_code', code: codes[3] })).statusCode,
    ).toBe(401);
    const factors = await call('GET', '/me/factors', cookieOf(used, cookie));
    expect(factors.json().data).toMatchObject({ totp: true, recovery_codes_left: STAFF_RECOVERY_CODE_COUNT - 1 });
  });

  it('an advisor needs no second factor, and may add one', async () => {
    const member = await createStaffMember(t.app, 'advisor');
    const { res, cookie } = await passwordStep(member.email);
    expect(res.json().data).toMatchObject({ stage: 'active', staff: { must_enrol: false }, factors: [] });
    expect((await call('GET', '/applications', cookie)).statusCode).toBe(200);
    const started = await call('POST', '/me/totp', cookie);
    expect(started.statusCode).toBe(200);
    rememberAuthenticator(member.id, started.json().data.secret);
    const confirmed = await call('POST', '/me/totp/confirm', cookie, { code: authenticatorCode(t.app, member.id) });
    expect(confirmed.json().data.recovery_codes).toHaveLength(STAFF_RECOVERY_CODE_COUNT);
    clock.advance(30);
    expect((await passwordStep(member.email)).res.json().data.stage).toBe('factor');
  });

  it('exports, identity images and staff changes need a second factor from the last 15 minutes', async () => {
    const { member, headers } = await staffSession(t.app, 'admin');
    const exportCsv = (cookie: string) => call('GET', '/exports/consents.csv?from=2026-11-01&to=2026-11-30', cookie);
    expect((await exportCsv(headers.cookie)).statusCode).toBe(200);
    clock.advance(15 * 60 + 1);
    const stale = await exportCsv(headers.cookie);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(stale.json().readable_message).toMatch(/segundo factor/);
    // Reading is not a step-up action.
    expect((await call('GET', '/applications', headers.cookie)).statusCode).toBe(200);
    const created = await call('POST', '/staff', headers.cookie, {
      email: 'x@prestamista.test',
      name: 'X',
      role: 'advisor',
    });
    expect(created.json().code).toBe('STEP_UP_REQUIRED');
    const session = await call('GET', '/session', headers.cookie);
    expect(new Date(session.json().data.step_up_until).getTime()).toBeLessThan(clock().getTime());
    const stepUp = await call('POST', '/session/factor', headers.cookie, {
      method: 'totp',
      code: authenticatorCode(t.app, member.id),
    });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const fresh = cookieOf(stepUp, headers.cookie);
    expect((await exportCsv(fresh)).statusCode).toBe(200);
    expect(await staffEventTypes(t.app, member.id)).toContain('staff.step_up');
  });

  it('an admin resets a member’s factors: audited, their sessions end, the next login enrols again', async () => {
    const admin = await staffSession(t.app, 'admin');
    const target = await staffSession(t.app, 'analyst');
    const reset = await call('POST', `/staff/${target.member.id}/reset-factors`, admin.headers.cookie);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data).toMatchObject({ second_factor: false, must_enrol: true });
    expect((await call('GET', '/applications', target.headers.cookie)).statusCode).toBe(401);
    expect(await t.app.db.select().from(staffSessions).where(eq(staffSessions.staffId, target.member.id))).toEqual([]);
    expect((await passwordStep(target.member.email)).res.json().data.stage).toBe('enrol');
    const [event] = await t.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, 'staff.factors_reset'))
      .orderBy(asc(auditEvents.id));
    expect(event).toMatchObject({ applicationId: `staff:${target.member.id}`, actor: `staff:${admin.member.id}` });
    // An advisor reset by an admin also enrols again (whatever the role).
    const advisor = await createStaffMember(t.app, 'advisor');
    await call('POST', `/staff/${advisor.id}/reset-factors`, admin.headers.cookie);
    expect((await passwordStep(advisor.email)).res.json().data.stage).toBe('enrol');
    // Nobody but an admin resets factors.
    expect((await call('POST', `/staff/${advisor.id}/reset-factors`, target.headers.cookie)).statusCode).toBe(401);
  });

  it('five wrong codes lock the second factor for the lock time (not the password)', async () => {
    const { member } = await staffSession(t.app, 'analyst');
    const { cookie } = await passwordStep(member.email);
    for (let i = 0; i < 5; i++)
      expect((await call('POST', '/session/factor', cookie, { method: 'totp', code: `00000${i}` })).statusCode).toBe(
        401,
      );
    const locked = await call('POST', '/session/factor', cookie, {
      method: 'totp',
      code: authenticatorCode(t.app, member.id),
    });
    expect(locked.statusCode).toBe(429);
    clock.advance(15 * 60 + 1);
    const { cookie: later } = await passwordStep(member.email);
    const ok = await call('POST', '/session/factor', later, {
      method: 'totp',
      code: authenticatorCode(t.app, member.id),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a TOTP code of the app computed independently (RFC 6238) is what the server accepts', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const { cookie } = await passwordStep(member.email);
    const { otpauth_uri: uri } = (await call('POST', '/me/totp', cookie)).json().data;
    const secret = new URL(uri).searchParams.get('secret')!;
    // RFC 6238 by hand: HMAC-SHA1 of the 30 s counter, dynamic truncation, 6 digits.
    const { createHmac } = await import('node:crypto');
    const key = Secret.fromBase32(secret).bytes;
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(Math.floor(clock().getTime() / 30_000)));
    const mac = createHmac('sha1', key).update(counter).digest();
    const offset = mac[19]! & 0xf;
    const code = String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
    expect(code).toBe(new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock().getTime() }));
    expect((await call('POST', '/me/totp/confirm', cookie, { code })).statusCode).toBe(200);
  });

  it('passkeys are offered only where WebAuthn can work (a domain, not an IP address)', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const { cookie } = await passwordStep(member.email);
    const onIp = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/me/passkeys/options',
      headers: { cookie, host: '127.0.0.1:3000' },
    });
    expect(onIp.statusCode).toBe(409);
    const onName = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/me/passkeys/options',
      headers: { cookie, host: 'localhost:3000' },
    });
    expect(onName.statusCode, onName.body).toBe(200);
    expect(onName.json().data.options).toMatchObject({ rp: { id: 'localhost', name: 'Provee' }, attestation: 'none' });
  });

  it('staffLogin helper stays honest: an unknown code is refused', async () => {
    const { member } = await staffSession(t.app, 'analyst');
    clock.advance(90);
    await expect(staffLogin(t.app, member.email, 'no-es-la-clave-correcta')).rejects.toThrow(/401/);
  });
});
