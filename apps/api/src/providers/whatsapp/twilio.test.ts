// The Twilio WhatsApp adapter against a stand-in for Twilio's Messages API built from its public
// documentation (fixtures/twilio.ts): the request's parameters, the answer's sid; then the app with
// WhatsApp first and SMS behind it, whose status callbacks (signed with X-Twilio-Signature as Twilio
// signs them) move a failed WhatsApp to SMS, and whose forged callbacks are refused.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { toE164 } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messageOptOuts, outgoingMessages } from '../../db/schema.js';
import { createApplication, shopkeeperCall } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { TWILIO_SIGNATURE_HEADER, twilioSignature } from '../twilio-signature.js';
import { incomingWhatsApp, messageCreated, statusCallback, TEMPLATE_REQUEST_PARAMETERS } from './fixtures/twilio.js';
import { createTwilioWhatsApp } from './twilio.js';

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token';
const WHATSAPP_FROM = '+18095550100';
const SMS_FROM = '+18095550000';
const PIN_TEMPLATE = `HX${'a'.repeat(32)}`;
const PUBLIC = 'https://provee.example';

let server: Server;
let baseUrl = '';
const calls: { url: string; authorization: string; form: Record<string, string> }[] = [];

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
    calls.push({ url: request.url ?? '', authorization: request.headers.authorization ?? '', form });
    const sid = `SM${randomUUID().replaceAll('-', '')}`;
    response
      .writeHead(201, { 'content-type': 'application/json', connection: 'close' })
      .end(JSON.stringify(messageCreated({ sid, to: form.To ?? '', from: form.From ?? '', accountSid: ACCOUNT })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('twilio WhatsApp adapter', () => {
  it('posts the template with its variables to the Messages API, as Twilio documents it', async () => {
    const whatsapp = createTwilioWhatsApp({
      apiUrl: baseUrl,
      accountSid: ACCOUNT,
      authToken: TOKEN,
      from: WHATSAPP_FROM,
      templates: { 'guarantor-invitation': PIN_TEMPLATE },
    });
    expect(whatsapp.sends('guarantor-invitation')).toBe(true);
    expect(whatsapp.sends('reminder')).toBe(false);
    const accepted = await whatsapp.send({
      to: '+18095551234',
      kind: 'guarantor-invitation',
      variables: ['Ana Núñez', 'https://provee.example/verify-aval-phone?token=a.b'],
      body: 'texto',
      statusCallback: `${PUBLIC}/api/v1/webhooks/messages/twilio/status`,
    });
    const call = calls.at(-1)!;
    expect(call.url).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`);
    expect(call.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`);
    expect(Object.keys(call.form).sort()).toEqual([...TEMPLATE_REQUEST_PARAMETERS].sort());
    expect(call.form).toEqual({
      To: 'whatsapp:+18095551234',
      From: `whatsapp:${WHATSAPP_FROM}`,
      ContentSid: PIN_TEMPLATE,
      ContentVariables: JSON.stringify({ 1: 'Ana Núñez', 2: 'https://provee.example/verify-aval-phone?token=a.b' }),
      StatusCallback: `${PUBLIC}/api/v1/webhooks/messages/twilio/status`,
    });
    expect(accepted.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
  });
});

describe('WhatsApp first through Twilio, SMS when it fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      SMS_PROVIDER: 'twilio',
      TWILIO_API_URL: baseUrl,
      TWILIO_ACCOUNT_SID: ACCOUNT,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: SMS_FROM,
      TWILIO_WHATSAPP_FROM: WHATSAPP_FROM,
      WHATSAPP_TEMPLATES: JSON.stringify({ 'consent-pin': PIN_TEMPLATE }),
      PUBLIC_BASE_URL: PUBLIC,
    });
  });
  afterAll(() => t?.close());

  const post = (path: string, form: Record<string, string>, signature?: string) => {
    const body = new URLSearchParams(form).toString();
    return t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        [TWILIO_SIGNATURE_HEADER]: signature ?? twilioSignature(TOKEN, `${PUBLIC}${path}`, Object.entries(form)),
      },
      payload: body,
    });
  };
  const STATUS = '/api/v1/webhooks/messages/twilio/status';
  const pinMessages = (applicationId: string) =>
    t.app.db
      .select()
      .from(outgoingMessages)
      .where(and(eq(outgoingMessages.applicationId, applicationId), eq(outgoingMessages.kind, 'consent-pin')));

  it('a PIN goes by WhatsApp; an undelivered report moves it to SMS; a forged report changes nothing', async () => {
    const applicant = await createApplication(t.app);
    const to = toE164('do', applicant.phone);
    expect((await shopkeeperCall(t.app, applicant, 'POST', '/nip')).statusCode).toBe(200);
    const whatsapp = calls.filter((call) => call.form.To === `whatsapp:${to}`);
    expect(whatsapp).toHaveLength(1);
    expect(whatsapp[0]!.form).toMatchObject({ ContentSid: PIN_TEMPLATE });
    // The callback names our message: a report that comes before Twilio's answer still finds it.
    expect(whatsapp[0]!.form.StatusCallback).toMatch(new RegExp(`^${PUBLIC}${STATUS}\\?m=[0-9a-f-]{36}$`));
    const pin = JSON.parse(whatsapp[0]!.form.ContentVariables!)['1'] as string;
    expect(pin).toMatch(/^\d{4}$/);
    const [sent] = await pinMessages(applicant.id);
    expect(sent).toMatchObject({ channel: 'whatsapp', status: 'queued' });
    const report = (status: 'sent' | 'undelivered' | 'delivered', errorCode?: string) =>
      statusCallback({
        sid: sent!.providerMessageId!,
        status,
        to,
        from: WHATSAPP_FROM,
        accountSid: ACCOUNT,
        errorCode,
      });

    // Forged: a wrong signature, or none.
    const forged = await post(STATUS, report('undelivered', '63016'), 'bm90IHR3aWxpbw==');
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE', readable_message: 'Firma inválida.' });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: STATUS,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(report('undelivered', '63016')).toString(),
    });
    expect(unsigned.statusCode).toBe(401);
    expect(await pinMessages(applicant.id)).toMatchObject([{ status: 'queued' }]);

    // Twilio's own reports: sent, then undelivered (63016: outside the window the template allows).
    const ok = await post(STATUS, report('sent'));
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/xml/);
    expect((await post(STATUS, report('undelivered', '63016'))).statusCode).toBe(200);
    await vi.waitFor(() => expect(calls.filter((call) => call.form.To === to)).toHaveLength(1), { timeout: 10_000 });
    const sms = calls.find((call) => call.form.To === to)!;
    expect(sms.form).toMatchObject({ From: SMS_FROM });
    expect(sms.form.StatusCallback).toMatch(new RegExp(`^${PUBLIC}${STATUS}\\?m=`));
    expect(sms.form.Body).toContain(`${pin} es tu NIP de consulta`);
    const rows = await pinMessages(applicant.id);
    expect(rows.map((row) => [row.channel, row.status, row.errorCode, row.sealed === null])).toEqual(
      expect.arrayContaining([
        ['whatsapp', 'undelivered', '63016', true],
        // The last channel: nothing can follow it, so its text goes as soon as the provider has it.
        ['sms', 'queued', null, true],
      ]),
    );
    // A late or repeated report moves nothing back, and sends nothing more.
    expect((await post(STATUS, report('delivered'))).statusCode).toBe(200);
    expect((await post(STATUS, report('undelivered', '63016'))).statusCode).toBe(200);
    expect((await pinMessages(applicant.id)).find((row) => row.channel === 'whatsapp')!.status).toBe('undelivered');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls.filter((call) => call.form.To === to)).toHaveLength(1);
  });

  it('a report that comes before Twilio’s answer (named by the callback URL) still moves the message', async () => {
    const applicant = await createApplication(t.app);
    const to = toE164('do', applicant.phone);
    const [row] = await t.app.db
      .insert(outgoingMessages)
      .values({
        applicationId: applicant.id,
        kind: 'consent-pin',
        channel: 'whatsapp',
        fallbacks: ['sms'],
        provider: 'twilio',
        sealed: t.app.cipher.encrypt(JSON.stringify({ to, body: '1234 es tu NIP de consulta', variables: ['1234'] })),
        createdAt: new Date(),
        statusAt: new Date(),
      })
      .returning();
    const sid = `SM${randomUUID().replaceAll('-', '')}`;
    const path = `${STATUS}?m=${row!.id}`;
    const early = await post(
      path,
      statusCallback({ sid, status: 'failed', to, from: WHATSAPP_FROM, accountSid: ACCOUNT, errorCode: '63003' }),
    );
    expect(early.statusCode).toBe(200);
    const rows = await pinMessages(applicant.id);
    expect(rows.find((message) => message.id === row!.id)).toMatchObject({
      status: 'failed',
      errorCode: '63003',
      sealed: null,
    });
    expect(rows.find((message) => message.fallbackOf === row!.id)).toMatchObject({ channel: 'sms' });
    // Another message's id in a signed URL names nothing of its sid.
    const other = await post(
      `${STATUS}?m=${row!.id}`,
      statusCallback({ sid: 'SMother', status: 'delivered', to, from: WHATSAPP_FROM, accountSid: ACCOUNT }),
    );
    expect(other.statusCode).toBe(200);
    expect((await pinMessages(applicant.id)).find((message) => message.id === row!.id)!.status).toBe('failed');
  });

  it('the template’s opt-out button (a quick reply) stops the reminders; a forged tap is refused', async () => {
    const applicant = await createApplication(t.app, { nextStep: 'BUSINESS_ADDRESS' });
    const to = toE164('do', applicant.phone);
    const inbound = incomingWhatsApp({
      sid: `SM${randomUUID().replaceAll('-', '')}`,
      from: to,
      to: WHATSAPP_FROM,
      accountSid: ACCOUNT,
      body: 'Ya no quiero recordatorios',
      button: { text: 'Ya no quiero recordatorios', payload: 'BAJA' },
    });
    const path = '/api/v1/webhooks/messages/twilio/inbound';
    expect((await post(path, inbound, 'Zm9yZ2Vk')).statusCode).toBe(401);
    expect(await t.app.db.select().from(messageOptOuts)).toHaveLength(0);
    expect((await post(path, inbound)).statusCode).toBe(200);
    expect(await t.app.db.select().from(messageOptOuts)).toMatchObject([{ source: 'button', channel: 'whatsapp' }]);
  });
});
