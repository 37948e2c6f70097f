import type { Config } from '../../config.js';
import { createSimulatorMessageWebhooks } from './simulator.js';
import { createTwilioMessageWebhooks } from './twilio.js';
import type { MessageWebhooks } from './types.js';

export type { DeliveryReport, MessageWebhooks, Reply } from './types.js';
export {
  createSimulatedDelivery,
  hasNoWhatsApp,
  simulatedReply,
  simulatedStatusBody,
  type SimulatedDelivery,
  type SimulatedReport,
} from './simulator.js';

/** The webhooks of the configured messaging provider (SMS_PROVIDER). */
export function createMessageWebhooks(
  config: Config,
  simulatorKey: Buffer,
): MessageWebhooks & { sign?: (raw: string) => string } {
  if (config.SMS_PROVIDER === 'twilio') {
    // Without PUBLIC_BASE_URL Twilio has nowhere to report: messages keep the status their sending gave.
    return createTwilioMessageWebhooks({ authToken: config.TWILIO_AUTH_TOKEN!, publicBaseUrl: config.PUBLIC_BASE_URL });
  }
  return createSimulatorMessageWebhooks(simulatorKey);
}
