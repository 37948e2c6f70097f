import { describe, expect, it } from 'vitest';
import { codeRequest, createPhone } from '../../test/phone.js';
import { manualClock, useTestApp, withTestApp } from '../../test/test-app.js';

/** docs/decisions/009: a carrier IP shared by thousands keeps working; SMS to many numbers does not. */
describe('phone-proof limits on a shared IP', () => {
  const clock = manualClock();
  const t = useTestApp({}, undefined, { clock });

  const reverseOtp = (phone: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      remoteAddress: ip,
      payload: { phone_number: phone },
    });

  it('SMS to at most 20 distinct numbers per IP per hour (default SMS_NUMBERS_PER_IP_PER_HOUR)', async () => {
    const ip = '10.20.0.1';
    const phones = Array.from({ length: 20 }, () => createPhone());
    for (const phone of phones) expect((await t.app.inject(codeRequest(phone, ip))).statusCode).toBe(200);
    const over = await t.app.inject(codeRequest(createPhone(), ip));
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      readable_message: expect.stringMatching(/desde esta conexión/),
    });
    expect(over.json().retry_after_seconds).toBe(3600);
    // Another IP is not affected.
    expect((await t.app.inject(codeRequest(createPhone(), '10.20.0.2'))).statusCode).toBe(200);

    // Re-sending to a number already counted is left to the per-number caps.
    clock.advance(61);
    expect((await t.app.inject(codeRequest(phones[0]!, ip))).statusCode).toBe(200);
    expect((await t.app.inject(codeRequest(createPhone(), ip))).statusCode).toBe(429);

    // A number stops counting an hour after it was last sent to: the 19 others have, phones[0] has not.
    clock.advance(3600 - 61);
    for (let i = 0; i < 19; i++) expect((await t.app.inject(codeRequest(createPhone(), ip))).statusCode).toBe(200);
    expect((await t.app.inject(codeRequest(createPhone(), ip))).statusCode).toBe(429);
  });

  it('reverse-OTP starts have no per-IP cap: 50 distinct numbers from one IP all start', async () => {
    const ip = '10.21.0.1';
    for (let i = 0; i < 50; i++) expect((await reverseOtp(createPhone(), ip)).statusCode).toBe(200);
    // ...and they do not use up the IP's SMS budget.
    expect((await t.app.inject(codeRequest(createPhone(), ip))).statusCode).toBe(200);
  });

  it('an IP over its SMS budget still proves numbers by reverse OTP', async () => {
    const ip = '10.22.0.1';
    for (let i = 0; i < 20; i++) expect((await t.app.inject(codeRequest(createPhone(), ip))).statusCode).toBe(200);
    expect((await t.app.inject(codeRequest(createPhone(), ip))).statusCode).toBe(429);
    expect((await reverseOtp(createPhone(), ip)).statusCode).toBe(200);
  });

  it('the per-number cap stays: a 6th reverse-OTP start for one number in an hour is 429, from any IP', async () => {
    const phone = createPhone();
    for (let i = 0; i < 5; i++) expect((await reverseOtp(phone, `10.23.0.${i + 1}`)).statusCode).toBe(200);
    const sixth = await reverseOtp(phone, '10.23.0.9');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('CODE_HOURLY_LIMIT');
  });

  it('the per-number cap stays for SMS too, whatever the IP', async () => {
    const phone = createPhone();
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject(codeRequest(phone, `10.24.0.${i + 1}`))).statusCode).toBe(200);
      clock.advance(61);
    }
    const sixth = await t.app.inject(codeRequest(phone, '10.24.0.9'));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('CODE_HOURLY_LIMIT');
  });
});

describe('SMS_NUMBERS_PER_IP_PER_HOUR changed by configuration', () => {
  it('=2 refuses a third distinct number, also when the requests arrive together', async () => {
    await withTestApp({ SMS_NUMBERS_PER_IP_PER_HOUR: '2' }, async (t) => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => t.app.inject(codeRequest(createPhone(), '10.25.0.1'))),
      );
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    });
  });
});
