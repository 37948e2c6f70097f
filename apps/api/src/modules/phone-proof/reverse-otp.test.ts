import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reverseOtpSessions } from '../../db/schema.js';
import { signWebhook } from '../../providers/reverse-otp/simulator.js';
import { createPhone } from '../../test/phone.js';
import { createTestApp, manualClock, useTestApp } from '../../test/test-app.js';

describe('reverse OTP', () => {
  const clock = manualClock();
  const t = useTestApp({}, undefined, { clock });

  const start = async (phone: string, ip = '10.5.0.1') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      remoteAddress: ip,
      payload: { phone_number: phone, anonymous_id: `anon-${phone}`, ip_address: '203.0.113.9' },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      session_id: string;
      message: string;
      destination: string;
      whatsapp_url: string;
      sms_url: string;
      expires_at: string;
    };
  };
  const poll = (sessionId: string) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/users/reverse-otp', payload: { session_id: sessionId } });
  const send = (from: string, text: string) =>
    t.app.inject({ method: 'POST', url: '/dev/reverse-otp/inbound', payload: { from, text } });

  it('starts a session with the message, where to send it and the two links', async () => {
    const session = await start(createPhone());
    expect(session.message).toMatch(/^Verificar Provee: [A-Z2-9]{8}$/);
    expect(session.destination).toBe('+18095550111');
    expect(session.whatsapp_url).toBe(`https://wa.me/18095550111?text=${encodeURIComponent(session.message)}`);
    expect(session.sms_url).toBe(`sms:+18095550111?&body=${encodeURIComponent(session.message)}`);
    expect(new Date(session.expires_at).getTime() - clock().getTime()).toBe(600_000);
  });

  it('answers 202 while pending, with what a second device needs to resume', async () => {
    const session = await start(createPhone());
    const res = await poll(session.session_id);
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ status: 'PENDING', ...session });
  });

  it('a message from the phone itself verifies it: 200 with the token', async () => {
    const phone = createPhone();
    const session = await start(phone);
    const delivered = await send(`+1${phone}`, `  ${session.message.toLowerCase()} `);
    expect(delivered.json()).toEqual({ data: { matched: true } });
    const res = await poll(session.session_id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ phone_number: phone, authentication: { access_type: 'Bearer' } });
    const lookup = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users?phone_number=${phone}`,
      headers: { authorization: `Bearer ${res.json().data.authentication.access_token}` },
    });
    expect(lookup.statusCode).toBe(404);
  });

  it('a message from another number fails: 401 unauthenticated for invalid credentials', async () => {
    const session = await start(createPhone());
    await send(`+1${createPhone()}`, session.message);
    const res = await poll(session.session_id);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'unauthenticated for invalid credentials',
    });
    expect(res.json().readable_message).toMatch(/escanea el código QR con el celular/);
  });

  it('expires after 10 minutes and then refuses even the right sender', async () => {
    const phone = createPhone();
    const session = await start(phone);
    clock.advance(601);
    expect((await send(`+1${phone}`, session.message)).json()).toEqual({ data: { matched: false } });
    const res = await poll(session.session_id);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('REVERSE_OTP_EXPIRED');
  });

  it('a new session supersedes the pending one for the same phone', async () => {
    const phone = createPhone();
    const first = await start(phone);
    await start(phone);
    expect((await poll(first.session_id)).statusCode).toBe(410);
  });

  it('an unknown session is a 404, a malformed one a 400', async () => {
    expect((await poll('6f1c1b9e-8a51-4c1e-9f5e-2b7c6e1d0a11')).statusCode).toBe(404);
    expect((await poll('nope')).statusCode).toBe(400);
  });

  describe('webhook signature', () => {
    const url = '/api/v1/webhooks/reverse-otp/simulator';
    const raw = JSON.stringify({ event: 'message.received', data: { from: '+18095550000', text: 'hola' } });
    /** The provider's call with this body and, when given, this signature. */
    const deliver = (payload: string, signature?: string, to = url) =>
      t.app.inject({
        method: 'POST',
        url: to,
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-webhook-signature': signature } : {}) },
        payload,
      });

    it('refuses a missing signature with 401 and logs it', async () => {
      const res = await deliver(raw);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INVALID_SIGNATURE');
      expect(t.logs.some((line) => line.msg === 'reverse-otp webhook with a missing or bad signature')).toBe(true);
    });

    it('refuses a signature made with another key, or over another body', async () => {
      const other = signWebhook(Buffer.alloc(32, 1), raw);
      expect((await deliver(raw, other)).statusCode).toBe(401);
      const good = t.app.reverseOtp.sign!(raw);
      const tampered = raw.replace('hola', 'HOLA');
      expect((await deliver(tampered, good)).statusCode).toBe(401);
    });

    it('refuses a signature older than five minutes (replay)', async () => {
      const old = signWebhook(t.app.secrets.key('reverse-otp-webhook'), raw, Math.floor(Date.now() / 1000) - 301);
      expect((await deliver(raw, old)).statusCode).toBe(401);
    });

    it('accepts a correctly signed call', async () => {
      const res = await deliver(raw, t.app.reverseOtp.sign!(raw));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { matched: false } });
    });

    it('an unknown provider is a 404', async () => {
      expect((await deliver(raw, undefined, '/api/v1/webhooks/reverse-otp/acme')).statusCode).toBe(404);
    });
  });

  it('REVERSE_OTP_WEBHOOK_SECRET, when set, is the key the webhook checks', async () => {
    const other = await createTestApp({ REVERSE_OTP_WEBHOOK_SECRET: 'vendor-issued-secret-123' });
    try {
      const raw = JSON.stringify({ event: 'message.received', data: { from: '+18095550000', text: 'hola' } });
      const signed = signWebhook(Buffer.from('vendor-issued-secret-123'), raw);
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks/reverse-otp/simulator',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signed },
        payload: raw,
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('the simulated phone page lists pending sessions with a prefilled form', async () => {
    const phone = createPhone();
    const session = await start(phone);
    const page = await t.app.inject({ method: 'GET', url: '/dev/phone' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`value="+1${phone}"`);
    expect(page.body).toContain(session.message);
    const form = await t.app.inject({
      method: 'POST',
      url: '/dev/reverse-otp/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from: `+1${phone}`, text: session.message }).toString(),
    });
    expect(form.statusCode).toBe(303);
    expect((await poll(session.session_id)).statusCode).toBe(200);
  });

  it('stores only the hash of the session key: a copy of the database cannot be exchanged for a token (issue 13, suite 7)', async () => {
    const phone = createPhone();
    const session = await start(phone);
    expect((await send(`+1${phone}`, session.message)).json()).toEqual({ data: { matched: true } });
    const [row] = await t.database.db
      .select()
      .from(reverseOtpSessions)
      .where(eq(reverseOtpSessions.phoneE164, `+1${phone}`));
    expect(row!.keyHash).toBe(createHash('sha256').update(session.session_id).digest('hex'));
    expect(row!.id).not.toBe(session.session_id);
    const dump = JSON.stringify([
      await t.database.db.execute(sql`select * from reverse_otp_sessions`),
      await t.database.db.execute(sql`select * from audit_events`),
    ]);
    expect(dump).not.toContain(session.session_id);
    // What the database holds is no key: the row's id is refused.
    expect((await poll(row!.id)).statusCode).toBe(404);
    expect((await poll(session.session_id)).statusCode).toBe(200);
  });
});
