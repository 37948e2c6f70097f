import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { SimulatedDelivery } from '../message-webhooks/index.js';
import { createOutboxWhatsApp } from './outbox.js';
import { createTwilioWhatsApp } from './twilio.js';
import type { WhatsAppProvider } from './types.js';

export type { WhatsAppMessage, WhatsAppProvider } from './types.js';

/**
 * The WhatsApp sender: the simulator beside the SMS outbox; Twilio's WhatsApp sender when
 * TWILIO_WHATSAPP_FROM is set; none otherwise (every message goes by SMS).
 */
export function createWhatsAppProvider(config: Config, db: Db, simulated: SimulatedDelivery): WhatsAppProvider | null {
  if (config.SMS_PROVIDER === 'outbox') return createOutboxWhatsApp(db, simulated.report('whatsapp'));
  if (!config.TWILIO_WHATSAPP_FROM) return null;
  return createTwilioWhatsApp({
    apiUrl: config.TWILIO_API_URL,
    accountSid: config.TWILIO_ACCOUNT_SID!,
    authToken: config.TWILIO_AUTH_TOKEN!,
    from: config.TWILIO_WHATSAPP_FROM,
    templates: config.WHATSAPP_TEMPLATES,
  });
}
