import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { createOutboxSms } from './outbox.js';
import { createTwilioSms } from './twilio.js';

export interface SmsMessage {
  /** E.164 */
  to: string;
  body: string;
}

/** Sends a text message; throws SmsError when the provider refuses or cannot be reached. */
export interface SmsProvider {
  name: 'outbox' | 'twilio';
  send(message: SmsMessage): Promise<void>;
}

export { SmsError } from './sms-error.js';

export function createSmsProvider(config: Config, db: Db): SmsProvider {
  if (config.SMS_PROVIDER === 'twilio') {
    return createTwilioSms({
      apiUrl: config.TWILIO_API_URL,
      accountSid: config.TWILIO_ACCOUNT_SID!,
      authToken: config.TWILIO_AUTH_TOKEN!,
      from: config.TWILIO_FROM!,
    });
  }
  return createOutboxSms(db);
}
