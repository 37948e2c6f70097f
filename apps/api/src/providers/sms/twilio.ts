import { SmsError } from './sms-error.js';
import type { Accepted, SmsProvider } from './types.js';

export interface TwilioOptions {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  timeoutMs?: number;
}

/**
 * One call to Twilio's Messages API (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * form-encoded POST with basic auth; 201 means accepted, and the answer's `sid` (SM…/MM…) is the id
 * its status callbacks name. SMS and WhatsApp (providers/whatsapp) post to the same resource.
 */
export async function postTwilioMessage(
  options: Omit<TwilioOptions, 'from'>,
  form: Record<string, string>,
): Promise<Accepted> {
  const url = `${options.apiUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new SmsError(`twilio unreachable: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  if (response.status !== 201 && response.status !== 200) {
    throw new SmsError(`twilio answered ${response.status}: ${text.slice(0, 200)}`);
  }
  let sid: unknown;
  try {
    sid = (JSON.parse(text) as { sid?: unknown }).sid;
  } catch {
    sid = undefined;
  }
  // Accepted all the same without one (its status reports then find no message to update).
  return { providerMessageId: typeof sid === 'string' && sid.length > 0 && sid.length <= 64 ? sid : null };
}

/** SMS through Twilio's Messages API, from the configured number. */
export function createTwilioSms(options: TwilioOptions): SmsProvider {
  return {
    name: 'twilio',
    send: ({ to, body, statusCallback }) =>
      postTwilioMessage(options, {
        To: to,
        From: options.from,
        Body: body,
        ...(statusCallback ? { StatusCallback: statusCallback } : {}),
      }),
  };
}
