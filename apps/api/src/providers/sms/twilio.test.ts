import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeRequest, createPhone } from '../../test/phone.js';
import { createTestApp } from '../../test/test-app.js';
import { SmsError } from './index.js';
import { createTwilioSms } from './twilio.js';

/** A local stand-in for Twilio's REST API: records each call and answers what the test says. */
let server: Server;
let baseUrl = '';
let answer = { status: 201, body: '{"sid":"SM1"}' };
const calls: { url: string; authorization: string; form: URLSearchParams }[] = [];

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    calls.push({
      url: request.url ?? '',
      authorization: request.headers.authorization ?? '',
      form: new URLSearchParams(await readBody(request)),
    });
    // No keep-alive: a test app that takes longer to start than the server's 5 s idle timeout
    // would otherwise reuse a socket the server is closing ('fetch failed').
    response.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close' }).end(answer.body);
  });
  // Idle keep-alive sockets outlive a slow test-app start: no race with the client reusing one.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('twilio SMS provider', () => {
  it('posts the message to the Messages API with basic auth', async () => {
    answer = { status: 201, body: '{"sid":"SM1"}' };
    const sms = createTwilioSms({ apiUrl: baseUrl, accountSid: 'AC123', authToken: 'secret', from: '+18095550000' });
    await sms.send({ to: '+18095551234', body: 'hola' });
    const call = calls.at(-1)!;
    expect(call.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(call.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    expect(Object.fromEntries(call.form)).toEqual({ To: '+18095551234', From: '+18095550000', Body: 'hola' });
  });

  it('turns a refusal or an unreachable API into SmsError', async () => {
    answer = { status: 400, body: '{"code":21211,"message":"Invalid To"}' };
    const sms = createTwilioSms({ apiUrl: baseUrl, accountSid: 'AC123', authToken: 'secret', from: '+18095550000' });
    await expect(sms.send({ to: '+18095551234', body: 'hola' })).rejects.toBeInstanceOf(SmsError);
    const down = createTwilioSms({
      apiUrl: 'http://127.0.0.1:9',
      accountSid: 'AC123',
      authToken: 'secret',
      from: '+18095550000',
    });
    await expect(down.send({ to: '+18095551234', body: 'hola' })).rejects.toBeInstanceOf(SmsError);
  });

  it('the code route sends through Twilio when configured, and answers 503 in Spanish when it fails', async () => {
    const t = await createTestApp({
      SMS_PROVIDER: 'twilio',
      TWILIO_API_URL: baseUrl,
      TWILIO_ACCOUNT_SID: 'AC999',
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_FROM: '+18095550000',
    });
    try {
      answer = { status: 201, body: '{}' };
      const phone = createPhone();
      expect((await t.app.inject(codeRequest(phone))).statusCode).toBe(200);
      expect(calls.at(-1)!.form.get('To')).toBe(`+1${phone}`);
      expect(calls.at(-1)!.form.get('Body')).toMatch(/^\d{6} es tu código de Provee/);
      // No outbox pages when another provider is active.
      expect((await t.app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode).toBe(404);

      answer = { status: 500, body: 'down' };
      const res = await t.app.inject(codeRequest(createPhone(), '10.7.0.1'));
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'SMS_UNAVAILABLE',
        readable_message: 'No pudimos enviar el SMS. Intenta de nuevo en un minuto.',
      });
    } finally {
      await t.close();
    }
  });
});
