import { createHmac, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { auditEvents, webhookDeliveries } from '../../db/schema.js';
import { createPhone } from '../../test/phone.js';
import { useTestApp } from '../../test/test-app.js';
import { createTwilioReverseOtp, EMPTY_TWIML, twilioSignature } from './twilio.js';

const AUTH_TOKEN = 'test-auth-token-0123456789abcdef';
const BASE = 'https://api.provee.example';
const PATH = '/api/v1/webhooks/reverse-otp/twilio';
const DESTINATION = '+18095550199';
const TWILIO_ENV = {
  REVERSE_OTP_PROVIDER: 'twilio',
  TWILIO_AUTH_TOKEN: AUTH_TOKEN,
  PUBLIC_BASE_URL: BASE,
  REVERSE_OTP_DESTINATION: DESTINATION,
};

/**
 * The documented algorithm, written out here on its own so the adapter is checked against it rather
 * than against itself: base64 HMAC-SHA1 (auth token) of the URL, then each name and value, names sorted.
 */
function sign(url: string, fields: [string, string][], token = AUTH_TOKEN): string {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac('sha1', token)
    .update(url + sorted.map(([name, value]) => name + value).join(''))
    .digest('base64');
}

/** The fixtures' message id; every other message gets its own, as Twilio gives each one. */
const FIXED_SID = 'SM0123456789abcdef0123456789abcdef';
const newSid = () => `SM${randomUUID().replace(/-/g, '')}`;

/** The fields Twilio posts for an inbound message (SMS, or WhatsApp with the `whatsapp:` prefix). */
function inbound(from: string, text: string, sid = newSid()): [string, string][] {
  const whatsapp = from.startsWith('whatsapp:');
  return [
    ['ToCountry', 'DO'],
    ['SmsMessageSid', sid],
    ['NumMedia', '0'],
    ['Body', text],
    ['From', from],
    ['To', whatsapp ? `whatsapp:${DESTINATION}` : DESTINATION],
    ['MessageSid', sid],
    ['AccountSid', 'AC0123456789abcdef0123456789abcdef'],
    ['SmsStatus', 'received'],
    ['ApiVersion', '2010-04-01'],
  ];
}

const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();

describe('twilio signature', () => {
  it("matches the worked example of Twilio's security guide", () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675310',
      Digits: '1234',
      From: '+14158675310',
      To: '+18005551212',
    };
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    expect(twilioSignature('12345', url, Object.entries(params))).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
    expect(sign(url, Object.entries(params), '12345')).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it('signs a fixed inbound SMS to our webhook as computed by hand', () => {
    // Computed once outside the code base (Python hmac/hashlib) from these exact inputs.
    const fields = inbound('+18095551234', 'Verificar Provee: ABCDEFGH', FIXED_SID);
    expect(twilioSignature(AUTH_TOKEN, `${BASE}${PATH}`, fields)).toBe('OpMqXYAKDcyl2sCbcF2HCTZ96t8=');
  });

  it('a repeated name contributes name and value once per distinct value, values sorted', () => {
    const url = `${BASE}${PATH}`;
    const expected = createHmac('sha1', AUTH_TOKEN).update(`${url}Aa1Aa2Bb`).digest('base64');
    expect(
      twilioSignature(AUTH_TOKEN, url, [
        ['B', 'b'],
        ['A', 'a2'],
        ['A', 'a1'],
        ['A', 'a1'],
      ]),
    ).toBe(expected);
  });

  const provider = createTwilioReverseOtp({
    authToken: AUTH_TOKEN,
    destination: DESTINATION,
    publicBaseUrl: `${BASE}/`,
  });

  it('checks the URL from configuration, with or without the default port, never the Host header', () => {
    const fields = inbound('+18095551234', 'hola');
    const raw = form(fields);
    for (const url of [`${BASE}${PATH}?a=1`, `https://api.provee.example:443${PATH}?a=1`]) {
      const headers = { 'x-twilio-signature': sign(url, fields), host: 'internal:3000' };
      expect(provider.verifySignature(raw, headers, `${PATH}?a=1`), url).toBe(true);
    }
    const viaHost = { 'x-twilio-signature': sign(`https://internal:3000${PATH}`, fields), host: 'internal:3000' };
    expect(provider.verifySignature(raw, viaHost, PATH)).toBe(false);
    expect(provider.verifySignature(raw, { 'x-twilio-signature': '' }, PATH)).toBe(false);
    expect(provider.verifySignature(raw, { 'x-twilio-signature': ['a', 'b'] }, PATH)).toBe(false);
  });

  it('reads the sender as bare E.164 for SMS and WhatsApp, and ignores what is not an inbound message', () => {
    const payload = (fields: [string, string][]) => Object.fromEntries(fields);
    expect(provider.parseInbound(payload(inbound('+18095551234', 'Verificar Provee: X', FIXED_SID)))).toEqual({
      id: FIXED_SID,
      from: '+18095551234',
      text: 'Verificar Provee: X',
    });
    expect(provider.parseInbound(payload(inbound('whatsapp:+18095551234', 'hola', FIXED_SID)))).toEqual({
      id: FIXED_SID,
      from: '+18095551234',
      text: 'hola',
    });
    // A status callback (no Body), another channel's sender, a sender that is not a phone.
    expect(provider.parseInbound({ MessageSid: 'SM1', MessageStatus: 'delivered', From: DESTINATION })).toBeNull();
    expect(provider.parseInbound(payload(inbound('messenger:1234567890', 'hola')))).toBeNull();
    expect(provider.parseInbound(payload(inbound('+1 809 555', 'hola')))).toBeNull();
    expect(provider.parseInbound('From=%2B18095551234')).toBeNull();
  });
});

describe('twilio reverse-OTP webhook', () => {
  const t = useTestApp(TWILIO_ENV);

  const start = async (phone: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      remoteAddress: '10.6.0.1',
      payload: { phone_number: phone, anonymous_id: `anon-${phone}`, ip_address: '203.0.113.9' },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { session_id: string; message: string; destination: string };
  };
  const poll = (sessionId: string) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/users/reverse-otp', payload: { session_id: sessionId } });
  /** A call as Twilio makes it; `signedUrl` and `signature` let a test sign something else than what is sent. */
  const post = (
    fields: [string, string][],
    options: { path?: string; signedUrl?: string; signature?: string | null; payload?: string } = {},
  ) => {
    const path = options.path ?? PATH;
    const signature =
      options.signature === undefined ? sign(options.signedUrl ?? `${BASE}${path}`, fields) : options.signature;
    return t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'provee-api.internal:3000',
        ...(signature === null ? {} : { 'x-twilio-signature': signature }),
      },
      payload: options.payload ?? form(fields),
    });
  };
  const expectTwiml = (res: Awaited<ReturnType<typeof post>>) => {
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe(EMPTY_TWIML);
  };

  it('sessions tell users to write to the Twilio number', async () => {
    const session = await start(createPhone());
    expect(session.destination).toBe(DESTINATION);
  });

  it('accepts the fixed signed fixture with an empty TwiML answer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: PATH,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': 'OpMqXYAKDcyl2sCbcF2HCTZ96t8=',
      },
      payload:
        'ToCountry=DO&SmsMessageSid=SM0123456789abcdef0123456789abcdef&NumMedia=0&Body=Verificar+Provee%3A+ABCDEFGH' +
        '&From=%2B18095551234&To=%2B18095550199&MessageSid=SM0123456789abcdef0123456789abcdef' +
        '&AccountSid=AC0123456789abcdef0123456789abcdef&SmsStatus=received&ApiVersion=2010-04-01',
    });
    expectTwiml(res);
  });

  it('a signed SMS from the phone itself verifies the session', async () => {
    const phone = createPhone();
    const session = await start(phone);
    expectTwiml(await post(inbound(`+1${phone}`, `${session.message}\n`)));
    const res = await poll(session.session_id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ phone_number: phone, authentication: { access_type: 'Bearer' } });
  });

  it('a signed WhatsApp message from the phone itself verifies the session', async () => {
    const phone = createPhone();
    const session = await start(phone);
    expectTwiml(await post(inbound(`whatsapp:+1${phone}`, session.message.toLowerCase())));
    expect((await poll(session.session_id)).statusCode).toBe(200);
  });

  it('a message from another number fails the session', async () => {
    const session = await start(createPhone());
    expectTwiml(await post(inbound(`whatsapp:+1${createPhone()}`, session.message)));
    const res = await poll(session.session_id);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_CREDENTIALS');
  });

  describe('refuses with 401 and leaves the session pending', () => {
    let phone: string;
    let session: { session_id: string; message: string };
    let fields: [string, string][];
    beforeAll(async () => {
      phone = createPhone();
      session = await start(phone);
      fields = inbound(`+1${phone}`, session.message);
    });
    const expectRefused = async (res: Awaited<ReturnType<typeof post>>) => {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INVALID_SIGNATURE');
      expect((await poll(session.session_id)).statusCode).toBe(202);
    };

    it('an unsigned call', async () => {
      await expectRefused(await post(fields, { signature: null }));
      expect(t.logs.some((line) => line.msg === 'reverse-otp webhook with a missing or bad signature')).toBe(true);
    });

    it('a call signed with another auth token', async () => {
      await expectRefused(await post(fields, { signature: sign(`${BASE}${PATH}`, fields, 'another-auth-token') }));
    });

    it('a body altered after signing', async () => {
      const altered = fields.map(([name, value]): [string, string] => [name, name === 'SmsStatus' ? 'queued' : value]);
      await expectRefused(await post(fields, { payload: form(altered) }));
      await expectRefused(await post(fields, { payload: `${form(fields)}&Extra=1` }));
    });

    it('a URL altered after signing (query or host)', async () => {
      await expectRefused(await post(fields, { path: `${PATH}?retry=1`, signedUrl: `${BASE}${PATH}` }));
      await expectRefused(await post(fields, { signedUrl: `${BASE}${PATH}?retry=1` }));
      await expectRefused(await post(fields, { signedUrl: `http://provee-api.internal:3000${PATH}` }));
    });

    it('and the same call, signed right, still verifies it', async () => {
      expectTwiml(await post(fields));
      expect((await poll(session.session_id)).statusCode).toBe(200);
    });
  });

  it('signs over the query string Twilio was given', async () => {
    const fields = inbound('+18095551234', 'hola');
    expectTwiml(await post(fields, { path: `${PATH}?channel=sms` }));
  });

  it('issue 26: a replayed delivery (same MessageSid) is answered with TwiML, recorded once, and changes nothing', async () => {
    const phone = createPhone();
    const session = await start(phone);
    const sid = newSid();
    const fields = inbound(`+1${phone}`, session.message, sid);
    // Every audit event of the database (this file's requests run one at a time).
    const events = async () => (await t.app.db.select().from(auditEvents)).map((e) => `${e.applicationId} ${e.type}`);
    const proofs = (all: string[]) => all.filter((event) => event.endsWith('phone.proven')).length;
    const initial = await events();
    // Twilio retrying while the first call is still running: both answered, one processed.
    const [a, b] = await Promise.all([post(fields), post(fields)]);
    expectTwiml(a);
    expectTwiml(b);
    expect((await poll(session.session_id)).statusCode).toBe(200);
    const before = await events();
    expect(proofs(before)).toBe(proofs(initial) + 1);
    // Captured and sent again later (Twilio's signature has no time in it): still 200, nothing happens.
    await start(phone);
    expectTwiml(await post(fields));
    expect(await events()).toEqual(before);
    const recorded = await t.app.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.provider, 'twilio'), eq(webhookDeliveries.deliveryId, sid)));
    expect(recorded).toHaveLength(1);
  });

  it('the simulator path is an unknown provider (404)', async () => {
    const res = await post(inbound('+18095551234', 'hola'), { path: '/api/v1/webhooks/reverse-otp/simulator' });
    expect(res.statusCode).toBe(404);
  });
});

describe('twilio reverse-OTP configuration', () => {
  it('choosing twilio without its settings stops start-up naming each missing variable', () => {
    const attempt = () => loadConfig({ REVERSE_OTP_PROVIDER: 'twilio' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/TWILIO_AUTH_TOKEN: es obligatoria con REVERSE_OTP_PROVIDER=twilio/);
    expect(attempt).toThrow(/PUBLIC_BASE_URL: es obligatoria con REVERSE_OTP_PROVIDER=twilio/);
    expect(attempt).toThrow(/REVERSE_OTP_DESTINATION: es obligatoria con REVERSE_OTP_PROVIDER=twilio/);
    for (const name of Object.keys(TWILIO_ENV).filter((key) => key !== 'REVERSE_OTP_PROVIDER')) {
      const { [name]: _left, ...rest } = TWILIO_ENV as Record<string, string>;
      expect(() => loadConfig(rest), name).toThrow(new RegExp(`^Configuración inválida:\\n  ${name}: `));
    }
  });

  it('PUBLIC_BASE_URL is an http(s) address without query or fragment; a trailing slash is dropped', () => {
    for (const value of ['not a url', 'ftp://api.provee.example', 'https://api.provee.example/?a=1']) {
      expect(() => loadConfig({ ...TWILIO_ENV, PUBLIC_BASE_URL: value }), value).toThrow(/PUBLIC_BASE_URL/);
    }
    const config = loadConfig({ ...TWILIO_ENV, PUBLIC_BASE_URL: 'https://provee.example/api-publica/' });
    expect(config).toMatchObject({
      REVERSE_OTP_PROVIDER: 'twilio',
      PUBLIC_BASE_URL: 'https://provee.example/api-publica',
    });
  });
});
