import { anonymousId, toE164, type CountryCode } from '@provee/domain';
import type { App } from '../types.js';
import { fakePhone } from './fake.js';
import { flushSms } from './jobs.js';

/** A fresh valid mobile number per call (Dominican unless told), so tests never share limits by accident. */
export function createPhone(country: CountryCode = 'do'): string {
  return fakePhone(country);
}

export async function lastSmsCode(app: App, phone: string): Promise<string> {
  await flushSms(app);
  const res = await app.inject({
    method: 'GET',
    url: `/dev/outbox.json?to=${encodeURIComponent(toE164(app.config.COUNTRY, phone))}`,
  });
  const body = res.json() as { messages: { body: string }[] };
  const code = /\b(\d{6})\b/.exec(body.messages[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  return code;
}

export function codeRequest(phone: string, remoteAddress = '10.0.0.1') {
  return {
    method: 'POST' as const,
    url: '/api/v1/users/code',
    remoteAddress,
    payload: { phone_number: phone, anonymous_id: anonymousId(phone) },
  };
}

export function codeConfirm(phone: string, code: string) {
  return {
    method: 'PUT' as const,
    url: '/api/v1/users/code',
    payload: { phone_number: phone, code, anonymous_id: anonymousId(phone) },
  };
}

/** Proves the phone through the SMS code and returns its bearer token. */
export async function phoneToken(app: App, phone: string): Promise<string> {
  const sent = await app.inject(
    codeRequest(phone, `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`),
  );
  if (sent.statusCode !== 200) throw new Error(`code not sent: ${sent.body}`);
  const res = await app.inject(codeConfirm(phone, await lastSmsCode(app, phone)));
  if (res.statusCode !== 200) throw new Error(`code not confirmed: ${res.body}`);
  return res.json().data.authentication.access_token as string;
}
