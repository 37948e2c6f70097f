import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, staff, staffSessions } from '../../db/schema.js';
import { createUser, userAuth } from '../../test/factories.js';
import { createTestApp, manualClock, type TestApp } from '../../test/test-app.js';
import { createStaffMember, STAFF_PASSWORD, staffLogin, staffSession } from '../../test/staff.js';

const login = (t: TestApp, email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/backoffice/session', payload: { email, password } });

describe('back-office access: staff sessions, lock-out, roles', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-23T09:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { clock });
  });
  afterAll(() => t.close());

  it('a login sets an HttpOnly, SameSite=Strict cookie for /api/backoffice only, kept server-side by its hash', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const res = await login(t, member.email.toUpperCase(), STAFF_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.staff).toMatchObject({ email: member.email, role: 'analyst' });
    const cookie = res.cookies.find((c) => c.name === 'provee_staff')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/backoffice' });
    expect(cookie.secure).toBeFalsy(); // plain http in the test; Secure over https ('auto')
    const sessionId = cookie.value.split('.')[0]!;
    const rows = await t.app.db.select().from(staffSessions).where(eq(staffSessions.staffId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.idHash).not.toContain(sessionId);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/session',
      headers: { cookie: `provee_staff=${cookie.value}` },
    });
    expect(me.json().data.staff.id).toBe(member.id);
  });

  it('over https (behind a trusted proxy) the cookie is also Secure', async () => {
    const behindTls = await createTestApp({ TRUST_PROXY: 'true' }, undefined, { database: t.database });
    try {
      const member = await createStaffMember(behindTls.app, 'advisor');
      const res = await behindTls.app.inject({
        method: 'POST',
        url: '/api/backoffice/session',
        payload: { email: member.email, password: STAFF_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.cookies.find((c) => c.name === 'provee_staff')).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Strict',
      });
    } finally {
      await behindTls.app.close();
    }
  });

  it('a wrong password and an unknown email get the same 401; the fifth failure locks for 15 minutes', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const unknown = await login(t, 'nadie@prestamista.test', 'lo-que-sea-123');
    expect(unknown.statusCode).toBe(401);
    for (let i = 1; i <= 4; i++) {
      const res = await login(t, member.email, `clave-equivocada-${i}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().readable_message).toBe(unknown.json().readable_message);
    }
    const fifth = await login(t, member.email, 'clave-equivocada-5');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json().code).toBe('ACCOUNT_LOCKED');
    expect(fifth.json().readable_message).toMatch(/bloqueada/);
    // Locked: even the right password is refused, for 15 minutes.
    expect((await login(t, member.email, STAFF_PASSWORD)).statusCode).toBe(423);
    clock.advance(14 * 60 + 59);
    expect((await login(t, member.email, STAFF_PASSWORD)).statusCode).toBe(423);
    clock.advance(2);
    const after = await login(t, member.email, STAFF_PASSWORD);
    expect(after.statusCode, after.body).toBe(200);
    const [row] = await t.app.db.select().from(staff).where(eq(staff.id, member.id));
    expect(row).toMatchObject({ failedLogins: 0, lockedUntil: null });
    const types = (
      await t.app.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.applicationId, `staff:${member.id}`))
        .orderBy(asc(auditEvents.id))
    ).map((e) => e.type);
    expect(types).toEqual([
      'staff.created',
      'staff.login_failed',
      'staff.login_failed',
      'staff.login_failed',
      'staff.login_failed',
      'staff.locked',
      'staff.login',
    ]);
  });

  it('parallel wrong passwords cannot slip past the cap', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => login(t, member.email, `mala-clave-${i}`)));
    expect(results.every((r) => r.statusCode === 401 || r.statusCode === 423)).toBe(true);
    const [row] = await t.app.db.select().from(staff).where(eq(staff.id, member.id));
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(clock().getTime());
    expect((await login(t, member.email, STAFF_PASSWORD)).statusCode).toBe(423);
  });

  it('a session ends after 30 idle minutes and after 12 hours however active', async () => {
    const { member, headers } = await staffSession(t.app, 'advisor');
    const me = () => t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers });
    clock.advance(29 * 60);
    expect((await me()).statusCode).toBe(200);
    clock.advance(29 * 60); // 58 minutes after login, 29 after the last call: still alive
    expect((await me()).statusCode).toBe(200);
    clock.advance(30 * 60 + 1);
    expect((await me()).statusCode).toBe(401);
    // The lapsed session's row goes at the person's next login.
    const rows = () => t.app.db.select().from(staffSessions).where(eq(staffSessions.staffId, member.id));
    expect(await rows()).toHaveLength(1);
    await staffLogin(t.app, member.email);
    expect(await rows()).toHaveLength(1);

    const second = await staffSession(t.app, 'advisor');
    const me2 = () => t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: second.headers });
    for (let i = 0; i < 25; i++) {
      clock.advance(29 * 60);
      const res = await me2();
      if (i < 24)
        expect(res.statusCode, `call ${i}`).toBe(200); // 12 h = 24 × 30 min
      else expect(res.statusCode).toBe(401);
    }
  });

  it('logout and deactivation end the session at once', async () => {
    const { headers } = await staffSession(t.app, 'analyst');
    expect((await t.app.inject({ method: 'DELETE', url: '/api/backoffice/session', headers })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/backoffice/applications', headers })).statusCode).toBe(401);

    const admin = await staffSession(t.app, 'admin');
    const target = await staffSession(t.app, 'analyst');
    const before = await t.app.inject({ method: 'GET', url: '/api/backoffice/applications', headers: target.headers });
    expect(before.statusCode).toBe(200);
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/backoffice/staff/${target.member.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/backoffice/applications', headers: target.headers });
    expect(after.statusCode).toBe(401);
    expect((await login(t, target.member.email, STAFF_PASSWORD)).statusCode).toBe(401);
    // An admin cannot switch themselves off.
    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/backoffice/staff/${admin.member.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(self.statusCode).toBe(409);
  });

  it('a shopkeeper token or a forged cookie is no session; the staff cookie opens nothing on the public API', async () => {
    const user = await createUser(t.app);
    const asShopkeeper = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/applications',
      headers: userAuth(t.app, user),
    });
    expect(asShopkeeper.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/applications',
      headers: { cookie: 'provee_staff=abc.def' },
    });
    expect(forged.statusCode).toBe(401);
    const { headers } = await staffSession(t.app, 'admin');
    const publicCall = await t.app.inject({ method: 'GET', url: `/api/v1/users/${user.id}/SK`, headers });
    expect(publicCall.statusCode).toBe(401);
  });

  it('admins create accounts (12 characters at least, one per email) and change roles; others cannot', async () => {
    const admin = await staffSession(t.app, 'admin');
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/staff',
      headers: admin.headers,
      payload: { email: 'nueva@prestamista.test', name: 'Nueva', role: 'advisor', password: 'corta' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().readable_message).toMatch(/12 caracteres/);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/staff',
      headers: admin.headers,
      payload: {
        email: 'Nueva@Prestamista.test',
        name: 'Nueva Asesora',
        role: 'advisor',
        password: 'una-clave-bien-larga',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ email: 'nueva@prestamista.test', role: 'advisor', active: true });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/staff',
      headers: admin.headers,
      payload: { email: 'nueva@prestamista.test', name: 'Otra', role: 'advisor', password: 'una-clave-bien-larga' },
    });
    expect(again.statusCode).toBe(409);
    const advisor = await staffLogin(t.app, 'nueva@prestamista.test', 'una-clave-bien-larga');
    const list = await t.app.inject({ method: 'GET', url: '/api/backoffice/staff', headers: advisor });
    expect(list.statusCode).toBe(403);
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/backoffice/staff/${created.json().data.id}`,
      headers: admin.headers,
      payload: { role: 'analyst' },
    });
    expect(promoted.json().data.role).toBe('analyst');
    // A role change ends the old sessions: the next call logs in again with the new role.
    expect((await t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: advisor })).statusCode).toBe(
      401,
    );
  });
});
