// Every outgoing message is a message-send job of the transaction that records what it is for (decision
// 030): sent at once while the request waits for its first try, sent again by the queue while the
// provider (a stand-in for Twilio's Messages API over real HTTP) is down, never kept in clear in
// the queue's table, and never the cause of a spent code limit.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { cedulaCheckDigit, toE164 } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { avals, outgoingMessages, phoneCodes, smsOutbox } from '../../db/schema.js';
import { createApplication, lastSmsPin, shopkeeperCall, userAuth } from '../../test/factories.js';
import { jobsOf, storedJobs } from '../../test/jobs.js';
import { codeRequest, createPhone, lastSmsCode } from '../../test/phone.js';
import { signerWithLink } from '../../test/signer.js';
import { createTestApp, type TestApp, useTestApp } from '../../test/test-app.js';
import { issueCode } from '../one-time-codes/index.js';
import { MESSAGE_SEND_JOB } from './message-job.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

describe('SMS through the job queue (outbox provider)', () => {
  const t = useTestApp({ NIP_PREFILL: 'true' });

  it('no job keeps a phone number, a code, a PIN or a link token in clear', async () => {
    // A phone-proof code.
    const phone = createPhone();
    expect((await t.app.inject(codeRequest(phone, '10.31.0.1'))).statusCode).toBe(200);
    const code = await lastSmsCode(t.app, phone);
    // A consent PIN.
    const applicant = await createApplication(t.app);
    expect((await shopkeeperCall(t.app, applicant, 'POST', '/nip')).statusCode).toBe(200);
    const pin = await lastSmsPin(t.app, applicant.phone);
    // A guarantor's invitation (a link with a signed token) and their PIN.
    const shopkeeper = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'INVENTORY' });
    const avalPhone = createPhone();
    const named = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${shopkeeper.id}/SK/avals`,
      headers: userAuth(t.app, shopkeeper),
      payload: {
        aval_type: 'PARTNER',
        name: 'Ramón Antonio Pérez',
        phone_number: avalPhone,
        tax_payer_id: cedula('9990000001'),
      },
    });
    expect(named.statusCode, named.body).toBe(200);
    const avalPin = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${shopkeeper.id}/SK/aval/nip?to=${avalPhone}`,
      headers: userAuth(t.app, shopkeeper),
    });
    expect(avalPin.statusCode, avalPin.body).toBe(200);
    const avalE164 = toE164('do', avalPhone);
    const toAval = await t.app.db.select().from(smsOutbox).where(eq(smsOutbox.to, avalE164));
    const invitationToken = /token=([^\s&]+)/.exec(toAval.find((sms) => sms.body.includes('aval'))!.body)![1]!;
    const guarantorPin = /\b(\d{4})\b/.exec(toAval.find((sms) => sms.body.includes('es tu NIP'))!.body)![1]!;
    // A signing link (a random token only its hash is stored of).
    const signer = await signerWithLink(t.app);

    const jobs = await storedJobs(t.app);
    const sent = jobs.filter((job) => job.name === MESSAGE_SEND_JOB);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    const secrets = [
      phone,
      toE164('do', phone),
      code,
      applicant.phone,
      pin,
      avalPhone,
      invitationToken,
      decodeURIComponent(invitationToken),
      guarantorPin,
      signer.token,
    ];
    // A secret in clear stands apart in the job's text (`"to":"+1809…"`, `es tu NIP 1040`); a short
    // one (a 4-digit PIN) can also turn up by chance inside a ciphertext's base64 or an id's hex
    // (as it once did in CI), which is no leak.
    const inClear = (text: string, secret: string) => {
      const escaped = secret.replace(/[.*+?^$|()[\]{}\\]/g, '\\$&');
      return new RegExp(`(?<![\\w+/-])${escaped}(?![\\w+/=-])`).test(text);
    };
    for (const job of jobs)
      for (const secret of secrets)
        expect(inClear(job.data, secret), `${job.name} keeps ${secret} in clear`).toBe(false);
    expect([
      inClear('"1040 es tu NIP"', '1040'),
      inClear('aval?token=x.y', 'x.y'),
      inClear('"v1:aB1040xZ"', '1040'),
    ]).toEqual([true, true, false]);
    // A job names its message; the message keeps the number and text sealed, opened only with the app's key.
    const { messageId } = JSON.parse(sent[0]!.data) as { messageId: string };
    const [message] = await t.app.db.select().from(outgoingMessages).where(eq(outgoingMessages.id, messageId));
    expect(message!.sealed ?? '').not.toContain(code);
    const rows = await t.app.db.select().from(outgoingMessages);
    for (const row of rows) for (const secret of secrets) expect(inClear(row.sealed ?? '', secret)).toBe(false);
  });

  it('a change that rolls back enqueues no SMS; a code refused by its limits enqueues none either', async () => {
    const before = (await jobsOf(t.app, MESSAGE_SEND_JOB)).length;
    const phone = toE164('do', createPhone());
    await expect(
      issueCode(t.app, {
        phoneE164: phone,
        purpose: 'phone-proof',
        message: (code) => `${code} es tu código`,
        within: async () => {
          throw new Error('what the code is for could not be written');
        },
      }),
    ).rejects.toThrow('could not be written');
    expect(await t.app.db.select().from(phoneCodes).where(eq(phoneCodes.phoneE164, phone))).toEqual([]);
    expect(await jobsOf(t.app, MESSAGE_SEND_JOB)).toHaveLength(before);

    const national = createPhone();
    expect((await t.app.inject(codeRequest(national, '10.31.0.2'))).statusCode).toBe(200);
    expect((await t.app.inject(codeRequest(national, '10.31.0.2'))).statusCode).toBe(429);
    expect(await jobsOf(t.app, MESSAGE_SEND_JOB)).toHaveLength(before + 1);
  });
});

/** Twilio's Messages API: down (503) while `down` is true, and what it accepted. */
let down = false;
const delivered: { to: string; body: string }[] = [];
const refused: { to: string; body: string }[] = [];
let server: Server;

describe('SMS with the provider down', () => {
  let t: TestApp;
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      let raw = '';
      for await (const chunk of request) raw += chunk;
      const form = new URLSearchParams(raw);
      const message = { to: form.get('To') ?? '', body: form.get('Body') ?? '' };
      (down ? refused : delivered).push(message);
      const status = down ? 503 : 201;
      response
        .writeHead(status, { 'content-type': 'application/json', connection: 'close' })
        .end(
          JSON.stringify(
            down
              ? { code: 20503, message: `Service unavailable for ${message.to}` }
              : { sid: `SM${randomUUID().replaceAll('-', '')}` },
          ),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({
      SMS_PROVIDER: 'twilio',
      TWILIO_API_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      TWILIO_ACCOUNT_SID: 'AC999',
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_FROM: '+18095550000',
      JOB_POLL_INTERVAL_MS: '500',
      JOB_RETRY_DELAY_SECONDS: '1',
      CODE_RESEND_SECONDS: '0',
      CODE_MAX_PER_HOUR: '2',
      SMS_NUMBERS_PER_IP_PER_HOUR: '2',
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    down = false;
  });

  it('a guarantor’s invitation is sent once the provider is back; the naming answered at once', async () => {
    const shopkeeper = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'INVENTORY' });
    const avalPhone = createPhone();
    const to = toE164('do', avalPhone);
    down = true;
    const named = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${shopkeeper.id}/SK/avals`,
      headers: userAuth(t.app, shopkeeper),
      payload: {
        aval_type: 'PARTNER',
        name: 'Ramón Antonio Pérez',
        phone_number: avalPhone,
        tax_payer_id: cedula('9990000001'),
      },
    });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().data).toMatchObject({ next_step: 'PARTNER_NIP' });
    await vi.waitFor(() => expect(refused.filter((sms) => sms.to === to).length).toBeGreaterThanOrEqual(2), {
      timeout: 15_000,
      interval: 100,
    });
    expect(delivered.filter((sms) => sms.to === to)).toEqual([]);
    down = false;
    await vi.waitFor(() => expect(delivered.filter((sms) => sms.to === to)).toHaveLength(1), {
      timeout: 20_000,
      interval: 100,
    });
    expect(delivered.find((sms) => sms.to === to)!.body).toMatch(/te eligió como aval .*verify-aval-phone\?token=/);
    // What the queue kept of the failures names neither the number nor the provider's words about it.
    const jobs = (await storedJobs(t.app)).filter((job) => job.name === MESSAGE_SEND_JOB);
    for (const job of jobs) expect(job.output ?? '').not.toContain(avalPhone);
  });

  it('a guarantor’s new number whose PIN could not be sent is not kept: the same change works once back', async () => {
    const shopkeeper = await createApplication(t.app, { taxId: cedula(randomTen()), nextStep: 'INVENTORY' });
    const auth = userAuth(t.app, shopkeeper);
    const oldPhone = createPhone();
    const named = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${shopkeeper.id}/SK/avals`,
      headers: auth,
      payload: {
        aval_type: 'PARTNER',
        name: 'Ramón Antonio Pérez',
        phone_number: oldPhone,
        tax_payer_id: cedula('9990000001'),
      },
    });
    expect(named.statusCode, named.body).toBe(200);
    const newPhone = createPhone();
    const change = () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${shopkeeper.id}/SK/aval/phone-number`,
        headers: auth,
        payload: { aval_type: 'PARTNER', phone_number: oldPhone, new_phone_number: `+1${newPhone}` },
      });
    down = true;
    const refusedChange = await change();
    expect(refusedChange.statusCode, refusedChange.body).toBe(503);
    const [aval] = await t.app.db.select().from(avals).where(eq(avals.userId, shopkeeper.id));
    expect(aval!.phoneE164).toBe(toE164('do', oldPhone));
    down = false;
    const accepted = await change();
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('a code whose first try fails answers 503, holds no limit, and is never sent later', async () => {
    const phone = createPhone();
    const to = toE164('do', phone);
    down = true;
    // Three refusals in a row: the hourly limit is 2, and none of them counts.
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject(codeRequest(phone, '10.32.0.1'));
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'SMS_UNAVAILABLE',
        readable_message: 'No pudimos enviar el SMS. Intenta de nuevo en un minuto.',
      });
    }
    expect(await t.app.db.select().from(phoneCodes).where(eq(phoneCodes.phoneE164, to))).toEqual([]);
    down = false;
    // Back: two codes within the hour, then the limit.
    for (let i = 0; i < 2; i++) expect((await t.app.inject(codeRequest(phone, '10.32.0.1'))).statusCode).toBe(200);
    expect((await t.app.inject(codeRequest(phone, '10.32.0.1'))).statusCode).toBe(429);
    // The refused codes' jobs, tried again by the queue, find their code withdrawn: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(delivered.filter((sms) => sms.to === to)).toHaveLength(2);
    expect(refused.filter((sms) => sms.to === to)).toHaveLength(3);
  });

  it('numbers refused during an outage do not fill their IP’s budget of distinct numbers', async () => {
    const [first, second, third] = [createPhone(), createPhone(), createPhone()];
    down = true;
    for (const phone of [first, second])
      expect((await t.app.inject(codeRequest(phone!, '10.33.0.1'))).statusCode).toBe(503);
    down = false;
    // Two distinct numbers an hour from this IP (SMS_NUMBERS_PER_IP_PER_HOUR=2): the refused ones spent none.
    expect((await t.app.inject(codeRequest(third!, '10.33.0.1'))).statusCode).toBe(200);
    expect((await t.app.inject(codeRequest(first!, '10.33.0.1'))).statusCode).toBe(200);
    const over = await t.app.inject(codeRequest(second!, '10.33.0.1'));
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('TOO_MANY_ATTEMPTS');
  });
});
