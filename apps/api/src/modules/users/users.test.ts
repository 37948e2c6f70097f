import { describe, expect, it } from 'vitest';
import { createUser, userToken } from '../../test/factories.js';
import { createPhone, phoneToken } from '../../test/phone.js';
import { manualClock, useTestApp, withTestApp } from '../../test/test-app.js';

describe('user lookup and detail', () => {
  const clock = manualClock();
  const t = useTestApp({}, undefined, { clock });

  const lookup = (phone: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/users?phone_number=${phone}&anonymous_id=anon-${phone}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const detail = (id: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/users/${id}/SK`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('404 for a new user, with the phone token', async () => {
    const phone = createPhone();
    const res = await lookup(phone, await phoneToken(t.app, phone));
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });

  it('200 with the SPEC §3 fields for a registered user', async () => {
    const partner = createPhone();
    const user = await createUser(t.app, {
      nextStep: 'PARTNER_NIP',
      status: 'IN_PROGRESS',
      avals: [{ avalType: 'PARTNER', phone: partner }],
    });
    const res = await lookup(user.phone, await phoneToken(t.app, user.phone));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      user_id: user.id,
      id: user.id,
      user_type: 'SK',
      next_step: 'PARTNER_NIP',
      status: 'IN_PROGRESS',
      request: { next_step: 'PARTNER_NIP', status: 'IN_PROGRESS', welcome_screen_number: 1 },
      avals: [{ aval_type: 'PARTNER', phone: partner }],
      phone_number: user.phone,
    });
  });

  it('401 without a token, with a forged one, or an expired one', async () => {
    const user = await createUser(t.app);
    expect((await lookup(user.phone)).statusCode).toBe(401);
    const token = await phoneToken(t.app, user.phone);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await lookup(user.phone, forged)).statusCode).toBe(401);
    expect((await detail(user.id, forged)).statusCode).toBe(401);
    clock.advance(12 * 3600);
    const expired = await lookup(user.phone, token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('UNAUTHENTICATED');
  });

  it("403 with another phone's token, on lookup and on detail", async () => {
    const victim = await createUser(t.app);
    const intruder = createPhone();
    const token = await phoneToken(t.app, intruder);
    const res = await lookup(victim.phone, token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    expect((await detail(victim.id, token)).statusCode).toBe(403);
  });

  it("the detail answers the owner's phone token, and 403 whether or not another id exists", async () => {
    const user = await createUser(t.app, { nextStep: 'ABOUT_STORE' });
    const token = await phoneToken(t.app, user.phone);
    const own = await detail(user.id, token);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.next_step).toBe('ABOUT_STORE');
    expect((await detail('6f1c1b9e-8a51-4c1e-9f5e-2b7c6e1d0a11', token)).statusCode).toBe(403);
    expect((await detail('not-a-uuid', token)).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/users/${user.id}/XX`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('a user token opens only that user', async () => {
    const mine = await createUser(t.app);
    const other = await createUser(t.app);
    const token = userToken(t.app, mine);
    expect((await detail(mine.id, token)).statusCode).toBe(200);
    expect((await detail(other.id, token)).statusCode).toBe(403);
  });
});

describe('GET /api/v1/ip', () => {
  it.each<{ answers: string; env: Record<string, string>; remoteAddress: string; ip: string }>([
    { answers: 'the address the server sees', env: {}, remoteAddress: '198.51.100.7', ip: '198.51.100.7' },
    {
      answers: 'behind a proxy (TRUST_PROXY=1), the forwarded client address',
      env: { TRUST_PROXY: '1' },
      remoteAddress: '10.0.0.2',
      ip: '203.0.113.1',
    },
  ])('answers $answers', async ({ env, remoteAddress, ip }) => {
    await withTestApp(env, async (t) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/ip',
        remoteAddress,
        headers: { 'x-forwarded-for': '203.0.113.1' },
      });
      expect(res.json()).toEqual({ ip });
    });
  });
});
