import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { SimulatedDelivery } from '../message-webhooks/index.js';
import { createOutboxSms } from './outbox.js';
import { createTwilioSms } from './twilio.js';
import type { SmsProvider } from './types.js';

export type { Accepted, SmsMessage, SmsProvider } from './types.js';
export { SmsError } from './sms-error.js';

export function createSmsProvider(config: Config, db: Db, simulated: SimulatedDelivery): SmsProvider {
  if (config.SMS_PROVIDER === 'twilio') {
    return createTwilioSms({
      apiUrl: config.TWILIO_API_URL,
      accountSid: config.TWILIO_ACCOUNT_SID!,
      authToken: config.TWILIO_AUTH_TOKEN!,
      from: config.TWILIO_FROM!,
    });
  }
  return createOutboxSms(db, simulated.report('sms'));
}
