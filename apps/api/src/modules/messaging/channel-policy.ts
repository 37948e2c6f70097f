import { COUNTRY_MESSAGING, type MessageChannel, type MessageKind } from '@provee/domain';
import type { Config } from '../../config.js';

export type ChannelConfig = Pick<
  Config,
  'COUNTRY' | 'MESSAGE_CHANNELS' | 'SMS_PROVIDER' | 'TWILIO_WHATSAPP_FROM' | 'WHATSAPP_TEMPLATES'
>;

/** Whether a kind of message can go by WhatsApp here: the simulator always; Twilio with a sender and the kind's template. */
export function whatsAppSends(config: ChannelConfig, kind: MessageKind): boolean {
  if (config.SMS_PROVIDER === 'outbox') return true;
  return !!config.TWILIO_WHATSAPP_FROM && !!config.WHATSAPP_TEMPLATES[kind];
}

/**
 * The channels a kind of message is tried on, in order: the country's policy (WhatsApp first, SMS
 * when it fails), or MESSAGE_CHANNELS' for that kind; WhatsApp left out where it cannot be sent.
 * Never empty: SMS is the last resort of a policy of WhatsApp alone that cannot send it.
 */
export function channelsFor(config: ChannelConfig, kind: MessageKind): MessageChannel[] {
  const policy = config.MESSAGE_CHANNELS[kind] ?? COUNTRY_MESSAGING[config.COUNTRY].channels;
  const usable = policy.filter((channel) => channel === 'sms' || whatsAppSends(config, kind));
  return usable.length > 0 ? usable : ['sms'];
}
