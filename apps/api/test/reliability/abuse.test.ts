import { cedulaCheckDigit, toE164 } from '@provee/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bureauConsents, phoneCodes, smsOutbox } from '../../src/db/schema.js';
import { createApplication, userAuth } from '../../src/test/factories.js';
import { codeConfirm, codeRequest, createPhone, lastSmsCode } from '../../src/test/phone.js';
import { createTestApp, type TestApp } from '../../src/test/test-app.js';

/**
 * Issue 13, suite 3: abuse. Guessing in parallel, flooding the SMS provider from one address
 * through two server instances on one database, and telling registered numbers from new ones.
 * Each test prints its figures (docs/RELIABILITY.md).
 */
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const tally = (codes: number[]) =>
  Object.entries(codes.reduce<Record<number, number>>((n, c) => ({ ...n, [c]: (n[c] ?? 0) + 1 }), {}))
    .map(([code, count]) => `${count}×${code}`)
    .join(', ');

describe('abuse', () => {
  let t: TestApp;
  /** A second server process on the same database (two replicas behind a balancer). */
  let second: TestApp;
  beforeAll(async () => {
    // The per-minute flood guard is lifted so the SMS caps themselves are what is tested.
    const env = { RATE_LIMIT_PER_MINUTE: '100000' };
    t = await createTestApp(env);
    second = await createTestApp(env, undefined, { database: t.database });
  });
  afterAll(async () => {
    await second.app.close();
    await t.close();
  });

  it('50 wrong codes at once never pass the attempt cap, and the right one is refused after them', async () => {
    const phone = createPhone();
    await t.app.inject(codeRequest(phone, '10.60.0.1'));
    const code = await lastSmsCode(t.app, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? second : t).app.inject(codeConfirm(phone, wrong))),
    );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((c) => c === 400).length).toBeLessThanOrEqual(t.app.config.CODE_MAX_ATTEMPTS);
    expect(codes.every((c) => c === 400 || c === 429)).toBe(true);
    const [row] = await t.app.db
      .select()
      .from(phoneCodes)
      .where(eq(phoneCodes.phoneE164, toE164('do', phone)));
    expect(row!.attempts).toBeLessThanOrEqual(t.app.config.CODE_MAX_ATTEMPTS);
    expect((await t.app.inject(codeConfirm(phone, code))).statusCode).toBe(429);
    console.log(`abuse: 50 parallel wrong codes → ${tally(codes)}; attempts recorded ${row!.attempts}`);
  });

  it('50 wrong consent PINs, 5 at a time, never pass the cap; the right one after them is refused', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const auth = userAuth(t.app, user);
    await t.app.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers: auth });
    const outbox = await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` });
    const pin = /\b(\d{4})\b/.exec(outbox.json().messages[0].body as string)![1]!;
    const wrong = pin === '0000' ? '1111' : '0000';
    // In 10 waves of 5 at once: a wave finds the step claimed by its first request (409 for the
    // rest), so the waves are what can use up the tries.
    const answers = [];
    for (let wave = 0; wave < 10; wave++)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            (i % 2 ? second : t).app.inject({
              method: 'PUT',
              url: `/api/v1/users/${user.id}/SK/nip`,
              headers: auth,
              payload: { nip: wrong },
            }),
          ),
        )),
      );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((c) => c === 400).length).toBeLessThanOrEqual(5);
    expect(codes.every((c) => c === 400 || c === 429 || c === 409)).toBe(true);
    const right = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/nip`,
      headers: auth,
      payload: { nip: pin },
    });
    console.log(
      `abuse: 50 wrong PINs in waves of 5 at once → ${tally(codes)}; the right PIN after them → ${right.statusCode}`,
    );
    // The right PIN counts only while wrong tries are left: at most 5 were checked and refused.
    const wrongTries = codes.filter((c) => c === 400).length;
    expect(right.statusCode).toBe(wrongTries < 5 ? 200 : 429);
    const consents = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.userId, user.id));
    expect(consents).toHaveLength(wrongTries < 5 ? 1 : 0);
  });

  it('1,000 code requests from one address, through two server instances, reach the SMS provider only as the caps allow', async () => {
    const ip = '10.60.1.1';
    // 100 numbers × 10 requests each, interleaved and split between the two servers, 50 at a time.
    const phones = Array.from({ length: 100 }, () => createPhone());
    const requests = Array.from({ length: 1000 }, (_, i) => phones[i % 100]!);
    const codes: number[] = [];
    for (let i = 0; i < requests.length; i += 50) {
      const batch = requests.slice(i, i + 50);
      const answers = await Promise.all(
        batch.map((phone, j) => ((i + j) % 2 ? second : t).app.inject(codeRequest(phone, ip))),
      );
      codes.push(...answers.map((res) => res.statusCode));
    }
    expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
    const sent = await t.app.db
      .select({ to: smsOutbox.to })
      .from(smsOutbox)
      .where(
        inArray(
          smsOutbox.to,
          phones.map((phone) => toE164('do', phone)),
        ),
      );
    const numbers = new Set(sent.map((row) => row.to));
    // At most SMS_NUMBERS_PER_IP_PER_HOUR distinct numbers from one address, one code each (60 s cooldown).
    expect(numbers.size).toBeLessThanOrEqual(t.app.config.SMS_NUMBERS_PER_IP_PER_HOUR);
    expect(sent.length).toBe(numbers.size);
    expect(codes.filter((c) => c === 200).length).toBe(sent.length);
    console.log(
      `abuse: 1,000 code requests from one IP over 2 server instances → ${tally(codes)}; ${sent.length} SMS to ${numbers.size} numbers (cap ${t.app.config.SMS_NUMBERS_PER_IP_PER_HOUR})`,
    );
  });

  it('a registered number and a new one get the same answer to a code request', async () => {
    const registered = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const fresh = createPhone();
    const a = await t.app.inject(codeRequest(registered.phone, '10.60.2.1'));
    const b = await t.app.inject(codeRequest(fresh, '10.60.2.2'));
    expect(a.statusCode).toBe(b.statusCode);
    const shape = (body: unknown): unknown =>
      body && typeof body === 'object'
        ? Object.fromEntries(Object.entries(body).map(([key, value]) => [key, shape(value)]))
        : typeof body;
    expect(shape(a.json())).toEqual(shape(b.json()));
    expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
  });
});
