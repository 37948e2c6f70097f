import { SmsError } from './sms-error.js';
import type { SmsProvider } from './types.js';

interface TwilioOptions {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  timeoutMs?: number;
}

/** Twilio's Messages API: form-encoded POST with basic auth; 201 means accepted. */
export function createTwilioSms(options: TwilioOptions): SmsProvider {
  const url = `${options.apiUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    async send({ to, body }) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: to, From: options.from, Body: body }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new SmsError(`twilio unreachable: ${(error as Error).message}`);
      }
      if (response.status !== 201 && response.status !== 200) {
        const detail = await response.text().catch(() => '');
        throw new SmsError(`twilio answered ${response.status}: ${detail.slice(0, 200)}`);
      }
    },
  };
}
