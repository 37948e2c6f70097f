import { STAFF_MAX_FAILED_LOGINS_PER_IP } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { STAFF_PASSWORD, sendAuthenticatorCode, staffSession } from '../../test/staff.js';
import { manualClock, useTestApp, withTestApp } from '../../test/test-app.js';

describe('back-office login: no enumeration, lock-out per e-mail and per client address', () => {
  const clock = manualClock(new Date('2026-11-24T10:00:00Z'));
  const t = useTestApp({}, undefined, { clock });
  let ipSeq = 0;
  /** Each test its own client address unless it says otherwise (the suite shares one app). */
  const newIp = () => `203.0.113.${++ipSeq}`;
  const login = (email: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/backoffice/session', payload: { email, password }, remoteAddress: ip });
  const shape = (res: { statusCode: number; json: () => unknown }) => ({ status: res.statusCode, body: res.json() });

  it('a real and an unknown e-mail answer alike, before and after five wrong passwords', async () => {
    const { member } = await staffSession(t.app, 'analyst');
    const unknown = `nadie-${Date.now()}@prestamista.test`;
    const ip = newIp();
    for (let i = 1; i <= 5; i++) {
      const real = await login(member.email, `clave-equivocada-${i}`, ip);
      const none = await login(unknown, `clave-equivocada-${i}`, ip);
      expect(shape(real)).toEqual(shape(none));
      expect(real.statusCode).toBe(401);
    }
    const [real, none] = [await login(member.email, 'otra-clave-mala', ip), await login(unknown, 'otra-mala', ip)];
    expect(shape(real)).toEqual(shape(none));
    expect(real.statusCode).toBe(429);
    expect(real.json().readable_message).toMatch(/Demasiados intentos/);
    clock.advance(15 * 60 + 1);
  });

  it('anyone can no longer lock the owner out: with the right password and the second factor they get in', async () => {
    const { member } = await staffSession(t.app, 'analyst');
    // An attacker, from several addresses, uses up the e-mail's attempts.
    for (let i = 0; i < 6; i++) await login(member.email, `adivinanza-${i}`, newIp());
    expect((await login(member.email, 'adivinanza-otra', newIp())).statusCode).toBe(429);
    // A wrong password on the locked e-mail says nothing more than for an unknown one.
    expect((await login(member.email, 'adivinanza-9', newIp())).statusCode).toBe(429);
    // The owner, from their own address, with the right password: asked for the second factor.
    const owner = await login(member.email, STAFF_PASSWORD, newIp());
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().data.stage).toBe('factor');
    const cookie = `provee_staff=${owner.cookies.find((c) => c.name === 'provee_staff')!.value}`;
    const factor = await sendAuthenticatorCode(t.app, cookie, member.id);
    expect(factor.statusCode, factor.body).toBe(200);
    // The second factor ended the e-mail's lock: the next wrong password is a plain 401 again.
    expect((await login(member.email, 'adivinanza-10', newIp())).statusCode).toBe(401);
  });

  it('an account without a second factor stays locked for its lock time', async () => {
    const { member } = await staffSession(t.app, 'advisor');
    const ip = newIp();
    for (let i = 0; i < 5; i++) await login(member.email, `mala-${i}`, ip);
    expect((await login(member.email, STAFF_PASSWORD, newIp())).statusCode).toBe(429);
    clock.advance(14 * 60);
    expect((await login(member.email, STAFF_PASSWORD, newIp())).statusCode).toBe(429);
    clock.advance(61);
    expect((await login(member.email, STAFF_PASSWORD, newIp())).statusCode).toBe(200);
  });

  it(`one client address gets ${STAFF_MAX_FAILED_LOGINS_PER_IP} failures across e-mails, then nothing is checked from it`, async () => {
    const { member } = await staffSession(t.app, 'advisor');
    const ip = newIp();
    for (let i = 0; i < STAFF_MAX_FAILED_LOGINS_PER_IP; i++) {
      const res = await login(`persona-${i}@prestamista.test`, 'no-existe-esta', ip);
      expect(res.statusCode).toBe(401);
    }
    expect((await login(member.email, STAFF_PASSWORD, ip)).statusCode).toBe(429);
    expect((await login(member.email, STAFF_PASSWORD, newIp())).statusCode).toBe(200);
    clock.advance(15 * 60 + 1);
  });

  it('parallel wrong passwords cannot slip past the cap: at most five are checked', async () => {
    const { member } = await staffSession(t.app, 'advisor');
    const verify = t.app.passwords.verify;
    let checkedAgainstAccount = 0;
    t.app.passwords.verify = async (password, stored) => {
      if (stored === member.passwordHash) checkedAgainstAccount++;
      return verify(password, stored);
    };
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => login(member.email, `paralela-${i}`, newIp())),
      );
      expect(results.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
      expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(5);
    } finally {
      t.app.passwords.verify = verify;
    }
    // Past the fifth, attempts are verified against a dummy hash (same time), never the account's.
    expect(checkedAgainstAccount).toBeLessThanOrEqual(5);
    expect((await login(member.email, STAFF_PASSWORD, newIp())).statusCode).toBe(429);
  });
});

describe('spent counters', () => {
  it('are removed once their window and lock are over, and only then', async () => {
    await withTestApp({}, async (t) => {
      const { countAttempt, forgetSpentCounters, recordFailure } = await import('./login-failures.js');
      const at = new Date('2026-11-24T12:00:00Z');
      const counter = { key: 'ip:198.51.100.7', max: 1, windowMs: 15 * 60_000 };
      await countAttempt(t.app.db, counter, at);
      await recordFailure(t.app.db, counter, at); // locked until 12:15
      expect(await forgetSpentCounters(t.app.db, new Date('2026-11-24T12:14:00Z'))).toBe(0);
      expect(await countAttempt(t.app.db, counter, new Date('2026-11-24T12:14:00Z'))).toBe(false);
      expect(await forgetSpentCounters(t.app.db, new Date('2026-11-24T12:16:00Z'))).toBe(1);
      expect(await countAttempt(t.app.db, counter, new Date('2026-11-24T12:16:00Z'))).toBe(true);
    });
  });
});
