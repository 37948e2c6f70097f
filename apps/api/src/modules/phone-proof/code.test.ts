import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.js';
import { codeConfirm, codeRequest, createPhone, lastSmsCode } from '../../test/phone.js';
import { createTestApp, createTestDatabase, manualClock, useTestApp, withTestApp } from '../../test/test-app.js';

describe('SMS code: sending and confirming', () => {
  const clock = manualClock();
  const t = useTestApp({}, undefined, { clock });

  /** A fresh phone sent a code from this client address: the code, and a wrong one. */
  async function codeSent(ip: string) {
    const phone = createPhone();
    await t.app.inject(codeRequest(phone, ip));
    const code = await lastSmsCode(t.app, phone);
    return { phone, code, wrong: code === '000000' ? '111111' : '000000' };
  }

  it('sends a 6-digit code by SMS and confirms it for a Bearer token', async () => {
    const phone = createPhone();
    const sent = await t.app.inject(codeRequest(phone));
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.resend_after_seconds).toBe(60);
    const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${phone}` })).json();
    expect(outbox.messages[0]).toMatchObject({
      to: `+1${phone}`,
      body: expect.stringMatching(/^\d{6} es tu código de Provee/),
    });

    const res = await t.app.inject(codeConfirm(phone, await lastSmsCode(t.app, phone)));
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.phone_number).toBe(phone);
    expect(data.authentication).toMatchObject({ access_type: 'Bearer', access_token: expect.any(String) });
    // A new number: no application (the lookup's 404), so the app needs no second call.
    expect(data.user).toBeNull();
  });

  it("a registered number's confirmation carries its application exactly as the lookup answers it", async () => {
    const registered = await createUser(t.app);
    await t.app.inject(codeRequest(registered.phone, '10.1.0.9'));
    const res = await t.app.inject(codeConfirm(registered.phone, await lastSmsCode(t.app, registered.phone)));
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    const lookup = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users?phone_number=${registered.phone}`,
      headers: { authorization: `Bearer ${data.authentication.access_token}` },
    });
    expect(lookup.statusCode).toBe(200);
    expect(data.user).toEqual(lookup.json().data);
    expect(data.user).toMatchObject({ user_id: registered.id, next_step: registered.nextStep });
  });

  it('stores only a keyed hash of the code', async () => {
    const { code } = await codeSent('10.1.0.1');
    const rows = await t.app.db.query.phoneCodes.findMany();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(`"${code}"`);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.codeHash))).toBe(true);
  });

  it('the answer does not reveal whether the number is registered', async () => {
    const registered = await createUser(t.app);
    const unknown = createPhone();
    const a = await t.app.inject(codeRequest(registered.phone, '10.1.0.2'));
    const b = await t.app.inject(codeRequest(unknown, '10.1.0.3'));
    expect(a.statusCode).toBe(b.statusCode);
    expect(Object.keys(a.json().data)).toEqual(Object.keys(b.json().data));
  });

  it('a code is single use', async () => {
    const { phone, code } = await codeSent('10.1.0.4');
    expect((await t.app.inject(codeConfirm(phone, code))).statusCode).toBe(200);
    const again = await t.app.inject(codeConfirm(phone, code));
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('CODE_INVALID');
  });

  it('a wrong code is refused with the tries left', async () => {
    const { phone, wrong } = await codeSent('10.1.0.5');
    const res = await t.app.inject(codeConfirm(phone, wrong));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'CODE_INVALID',
      attempts_left: 4,
      readable_message: 'El código no es correcto. Te quedan 4 intentos.',
    });
  });

  it("the last try left is said in the singular: 'Te queda 1 intento.'", async () => {
    const { phone, wrong } = await codeSent('10.1.0.15');
    const messages: string[] = [];
    for (let i = 0; i < 4; i++) messages.push((await t.app.inject(codeConfirm(phone, wrong))).json().readable_message);
    expect(messages).toEqual([
      'El código no es correcto. Te quedan 4 intentos.',
      'El código no es correcto. Te quedan 3 intentos.',
      'El código no es correcto. Te quedan 2 intentos.',
      'El código no es correcto. Te queda 1 intento.',
    ]);
  });

  it('after 5 wrong tries even the right code is refused (default CODE_MAX_ATTEMPTS)', async () => {
    const { phone, code, wrong } = await codeSent('10.1.0.6');
    for (let i = 0; i < 5; i++) expect((await t.app.inject(codeConfirm(phone, wrong))).statusCode).toBe(400);
    const right = await t.app.inject(codeConfirm(phone, code));
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('CODE_LOCKED');
  });

  it('the right code on the 5th try still works', async () => {
    const { phone, code, wrong } = await codeSent('10.1.0.7');
    for (let i = 0; i < 4; i++) await t.app.inject(codeConfirm(phone, wrong));
    expect((await t.app.inject(codeConfirm(phone, code))).statusCode).toBe(200);
  });

  it('a code is valid 10 minutes (default CODE_TTL_SECONDS)', async () => {
    const { phone, code } = await codeSent('10.1.0.8');
    clock.advance(599);
    expect((await t.app.inject(codeConfirm(phone, code))).statusCode).toBe(200);

    const other = createPhone();
    await t.app.inject(codeRequest(other, '10.1.0.9'));
    const late = await lastSmsCode(t.app, other);
    clock.advance(600);
    const res = await t.app.inject(codeConfirm(other, late));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('CODE_EXPIRED');
  });

  it('a new code no sooner than 60 s (default CODE_RESEND_SECONDS), 429 with the seconds left', async () => {
    const phone = createPhone();
    expect((await t.app.inject(codeRequest(phone, '10.1.1.1'))).statusCode).toBe(200);
    clock.advance(59);
    const early = await t.app.inject(codeRequest(phone, '10.1.1.1'));
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({ code: 'CODE_RESEND_TOO_SOON', retry_after_seconds: 1 });
    expect(early.headers['retry-after']).toBe('1');
    clock.advance(1);
    expect((await t.app.inject(codeRequest(phone, '10.1.1.1'))).statusCode).toBe(200);
  });

  it('within the interval, the 429 names when the last code expires while it still works', async () => {
    const phone = createPhone();
    const sent = (await t.app.inject(codeRequest(phone, '10.1.1.4'))).json().data;
    clock.advance(20);
    const early = await t.app.inject(codeRequest(phone, '10.1.1.4'));
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({
      code: 'CODE_RESEND_TOO_SOON',
      retry_after_seconds: 40,
      code_expires_at: sent.expires_at,
      readable_message:
        'El último código que te enviamos sigue valiendo: úsalo, o espera 40 segundos para pedir uno nuevo.',
    });
    // Locked by wrong tries: it no longer works, so the answer only says when to ask again.
    const code = await lastSmsCode(t.app, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await t.app.inject(codeConfirm(phone, wrong));
    const locked = await t.app.inject(codeRequest(phone, '10.1.1.4'));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code_expires_at).toBeUndefined();
    expect(locked.json().readable_message).toBe('Espera 40 segundos para pedir un código nuevo.');
  });

  it('a spent code does not hold the interval: coming back right after the proof gets a new code', async () => {
    const phone = createPhone();
    await t.app.inject(codeRequest(phone, '10.1.1.5'));
    const first = await lastSmsCode(t.app, phone);
    expect((await t.app.inject(codeConfirm(phone, first))).statusCode).toBe(200);
    clock.advance(5);
    const again = await t.app.inject(codeRequest(phone, '10.1.1.5'));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.resend_after_seconds).toBe(60);
    const second = await lastSmsCode(t.app, phone);
    expect((await t.app.inject(codeConfirm(phone, second))).statusCode).toBe(200);
    // The new code holds the interval as any unused code does.
    expect((await t.app.inject(codeRequest(phone, '10.1.1.5'))).statusCode).toBe(200);
    clock.advance(1);
    const unused = await t.app.inject(codeRequest(phone, '10.1.1.5'));
    expect(unused.statusCode).toBe(429);
    expect(unused.json().code).toBe('CODE_RESEND_TOO_SOON');
  });

  it('spent codes still count toward the hourly cap', async () => {
    const phone = createPhone();
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject(codeRequest(phone, '10.1.1.6'))).statusCode).toBe(200);
      expect((await t.app.inject(codeConfirm(phone, await lastSmsCode(t.app, phone)))).statusCode).toBe(200);
    }
    const sixth = await t.app.inject(codeRequest(phone, '10.1.1.6'));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('CODE_HOURLY_LIMIT');
  });

  it('a resend kills the previous code', async () => {
    const phone = createPhone();
    await t.app.inject(codeRequest(phone, '10.1.1.2'));
    const first = await lastSmsCode(t.app, phone);
    clock.advance(60);
    await t.app.inject(codeRequest(phone, '10.1.1.2'));
    const second = await lastSmsCode(t.app, phone);
    if (first !== second) expect((await t.app.inject(codeConfirm(phone, first))).statusCode).toBe(400);
    expect((await t.app.inject(codeConfirm(phone, second))).statusCode).toBe(200);
  });

  it('at most 5 codes per number per hour (default CODE_MAX_PER_HOUR)', async () => {
    const phone = createPhone();
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject(codeRequest(phone, '10.1.1.3'))).statusCode).toBe(200);
      clock.advance(61);
    }
    const sixth = await t.app.inject(codeRequest(phone, '10.1.1.3'));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('CODE_HOURLY_LIMIT');
    clock.advance(3600);
    expect((await t.app.inject(codeRequest(phone, '10.1.1.3'))).statusCode).toBe(200);
  });

  it.each([
    ['7865551234', 'not a Dominican area code'],
    ['8091234567', 'exchange starting with 1'],
    ['80955512', 'too short'],
  ])('refuses %s (%s) with a 400 on the field', async (phone) => {
    const res = await t.app.inject(codeRequest(phone, '10.3.0.1'));
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([
      { field: 'body.phone_number', message: 'Ingresa un número celular válido de 10 dígitos.' },
    ]);
  });

  it('refuses an anonymous_id that is not derived from the phone', async () => {
    const res = await t.app.inject({
      ...codeRequest(createPhone(), '10.3.0.2'),
      payload: { phone_number: createPhone(), anonymous_id: 'anon-1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues[0].field).toBe('body.anonymous_id');
  });
});

describe('SMS code limits changed by configuration', () => {
  it('CODE_MAX_ATTEMPTS=2 locks after 2 wrong tries', async () => {
    await withTestApp({ CODE_MAX_ATTEMPTS: '2' }, async (t) => {
      const phone = createPhone();
      await t.app.inject(codeRequest(phone));
      const code = await lastSmsCode(t.app, phone);
      const wrong = code === '000000' ? '111111' : '000000';
      await t.app.inject(codeConfirm(phone, wrong));
      await t.app.inject(codeConfirm(phone, wrong));
      expect((await t.app.inject(codeConfirm(phone, code))).statusCode).toBe(429);
    });
  });
});

describe('limits are shared by server processes', () => {
  it('a second app on the same database sees the first one’s cooldown', async () => {
    const { database, drop } = await createTestDatabase();
    const a = await createTestApp({}, undefined, { database });
    const b = await createTestApp({}, undefined, { database });
    try {
      const phone = createPhone();
      expect((await a.app.inject(codeRequest(phone))).statusCode).toBe(200);
      const second = await b.app.inject(codeRequest(phone));
      expect(second.statusCode).toBe(429);
      expect(second.json().code).toBe('CODE_RESEND_TOO_SOON');
      // And the code sent through one process is confirmed through the other.
      expect((await b.app.inject(codeConfirm(phone, await lastSmsCode(a.app, phone)))).statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});
