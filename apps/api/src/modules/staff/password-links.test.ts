import { STAFF_PASSWORD_LINK_MINUTES } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { staffPasswordLinks } from '../../db/schema.js';
import { createStaffMember, staffEventTypes, staffLogin, staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';

describe('password links: no password travels in a message', () => {
  const clock = manualClock(new Date('2026-11-24T11:00:00Z'));
  const t = useTestApp({ PUBLIC_BASE_URL: 'https://backoffice.prestamista.test' }, undefined, { clock });
  const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
  const setPassword = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/backoffice/password-link/password', payload: { token, password } });
  /** A password link for this staff account, asked for with these headers (an admin's, or not). */
  const issuePasswordLink = (staffId: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/backoffice/staff/${staffId}/password-link`, headers });

  it('an admin’s link (in the URL fragment, stored hashed) sets a password once, within the hour', async () => {
    const admin = await staffSession(t.app, 'admin');
    const member = await createStaffMember(t.app, 'advisor', { name: 'Inés Asesora' });
    const issued = await issuePasswordLink(member.id, admin.headers);
    expect(issued.statusCode, issued.body).toBe(200);
    const { url, expires_at: expiresAt } = issued.json().data;
    expect(url).toMatch(/^https:\/\/backoffice\.prestamista\.test\/backoffice\/password#token=[\w-]{43}$/);
    expect(new Date(expiresAt).getTime() - clock().getTime()).toBe(STAFF_PASSWORD_LINK_MINUTES * 60_000);
    const token = tokenOf(url);
    const [row] = await t.app.db.select().from(staffPasswordLinks).where(eq(staffPasswordLinks.staffId, member.id));
    expect(JSON.stringify(row)).not.toContain(token);

    const info = await t.app.inject({ method: 'POST', url: '/api/backoffice/password-link', payload: { token } });
    expect(info.json().data).toEqual({ email: member.email, name: 'Inés Asesora' });
    const weak = await setPassword(token, 'aaaaaaaaaaaa');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().readable_message).toMatch(/muy común o fácil de adivinar/);
    expect((await setPassword(token, 'ines escribe con calma')).statusCode).toBe(204);
    expect((await setPassword(token, 'otra frase bastante larga')).statusCode).toBe(400);
    await expect(staffLogin(t.app, member.email, 'ines escribe con calma')).resolves.toMatchObject({});
    const types = await staffEventTypes(t.app, member.id);
    expect(types).toEqual(expect.arrayContaining(['staff.password_link_issued', 'staff.password_set']));
  });

  it('a link expires after an hour; a newer link voids the older one; two tabs cannot both use one', async () => {
    let admin = await staffSession(t.app, 'admin');
    const member = await createStaffMember(t.app, 'analyst');
    const issue = async () => tokenOf((await issuePasswordLink(member.id, admin.headers)).json().data.url);
    const first = await issue();
    clock.advance(STAFF_PASSWORD_LINK_MINUTES * 60 + 1);
    expect((await setPassword(first, 'una frase de prueba larga')).json().code).toBe('PASSWORD_LINK_INVALID');
    admin = await staffSession(t.app, 'admin'); // the first one's second factor is no longer recent
    const second = await issue();
    const third = await issue();
    expect((await setPassword(second, 'una frase de prueba larga')).statusCode).toBe(400);
    const both = await Promise.all([
      setPassword(third, 'una frase de prueba larga'),
      setPassword(third, 'otra frase de prueba larga'),
    ]);
    expect(both.map((res) => res.statusCode).sort()).toEqual([204, 400]);
  });

  it('setting a password ends every session of the account', async () => {
    const admin = await staffSession(t.app, 'admin');
    const member = await staffSession(t.app, 'advisor');
    const link = await issuePasswordLink(member.member.id, admin.headers);
    expect((await setPassword(tokenOf(link.json().data.url), 'la nueva frase del asesor')).statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/api/backoffice/session', headers: member.headers });
    expect(me.statusCode).toBe(401);
  });

  it('an admin cannot issue a link for their own account, and nobody else can issue one', async () => {
    const admin = await staffSession(t.app, 'admin');
    const analyst = await staffSession(t.app, 'analyst');
    const own = await issuePasswordLink(admin.member.id, admin.headers);
    expect(own.statusCode).toBe(409);
    const notAdmin = await issuePasswordLink(admin.member.id, analyst.headers);
    expect(notAdmin.statusCode).toBe(403);
  });
});
