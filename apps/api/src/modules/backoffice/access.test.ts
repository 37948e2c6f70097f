import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSessions } from '../../db/schema.js';
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
    const behindTls = await createTestApp({ TRUST_PROXY: '1' }, undefined, { database: t.database });
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

  it('a read within a minute of the last recorded activity writes nothing; a later one moves it', async () => {
    const { member, headers } = await staffSession(t.app, 'advisor');
    const me = () => t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers });
    const lastSeen = async () =>
      (await t.app.db.select().from(staffSessions).where(eq(staffSessions.staffId, member.id)))[0]!.lastSeenAt;
    const recorded = await lastSeen();
    clock.advance(59);
    expect((await me()).statusCode).toBe(200);
    expect(await lastSeen()).toEqual(recorded);
    clock.advance(2);
    expect((await me()).statusCode).toBe(200);
    expect(await lastSeen()).toEqual(clock());
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

  it('admins create accounts (one per email) with a password link, and change roles; others cannot', async () => {
    const admin = await staffSession(t.app, 'admin');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/staff',
      headers: admin.headers,
      payload: { email: 'Nueva@Prestamista.test', name: 'Nueva Asesora', role: 'advisor' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.staff).toMatchObject({ email: 'nueva@prestamista.test', role: 'advisor', active: true });
    const link = new URL(created.json().data.password_link.url);
    const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/password-link/password',
      payload: { token, password: 'una-clave-bien-larga' },
    });
    expect(set.statusCode, set.body).toBe(204);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/staff',
      headers: admin.headers,
      payload: { email: 'nueva@prestamista.test', name: 'Otra', role: 'advisor' },
    });
    expect(again.statusCode).toBe(409);
    const advisor = await staffLogin(t.app, 'nueva@prestamista.test', 'una-clave-bien-larga');
    const list = await t.app.inject({ method: 'GET', url: '/api/backoffice/staff', headers: advisor });
    expect(list.statusCode).toBe(403);
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/backoffice/staff/${created.json().data.staff.id}`,
      headers: admin.headers,
      payload: { role: 'analyst' },
    });
    expect(promoted.json().data).toMatchObject({ role: 'analyst', must_enrol: true });
    // A role change ends the old sessions: the next call logs in again with the new role.
    expect((await t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: advisor })).statusCode).toBe(
      401,
    );
  });
});
