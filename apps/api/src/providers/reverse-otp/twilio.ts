import { z } from 'zod';
import { EMPTY_TWIML, verifyTwilioSignature } from '../twilio-signature.js';
import type { InboundMessage, ReverseOtpProvider } from './types.js';

export { EMPTY_TWIML, TWILIO_SIGNATURE_HEADER, twilioSignature } from '../twilio-signature.js';

/** `+` and 8–15 digits, optionally behind WhatsApp's channel prefix. */
const SENDER = /^(?:whatsapp:)?(\+\d{8,15})$/;

const inboundSchema = z.object({
  MessageSid: z.string().min(1).max(64),
  From: z.string().max(64),
  Body: z.string().max(1600),
});

export interface TwilioReverseOtpOptions {
  authToken: string;
  /** E.164 of the Twilio number (or WhatsApp sender) users write to. */
  destination: string;
  /** Where the public reaches this server (scheme, host and any prefix a proxy strips), no trailing slash. */
  publicBaseUrl: string;
}

/**
 * Twilio Messaging (SMS and WhatsApp): the number's "A message comes in" webhook points at
 *   <PUBLIC_BASE_URL>/api/v1/webhooks/reverse-otp/twilio   (HTTP POST)
 * Twilio posts application/x-www-form-urlencoded (From, To, Body, MessageSid, AccountSid, …) and signs
 * each call in X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL it
 * called followed by every POST parameter name and value, names sorted
 * (https://www.twilio.com/docs/usage/security#validating-requests). Twilio expects TwiML back.
 */
export function createTwilioReverseOtp(options: TwilioReverseOtpOptions): ReverseOtpProvider {
  return {
    name: 'twilio',
    destination: options.destination,
    acknowledgement: { contentType: 'text/xml; charset=utf-8', body: EMPTY_TWIML },
    verifySignature: (rawBody, headers, requestUrl) => verifyTwilioSignature(options, rawBody, headers, requestUrl),
    parseInbound(payload): InboundMessage | null {
      // Status callbacks and anything that is not an inbound message lack MessageSid/From/Body.
      const parsed = inboundSchema.safeParse(payload);
      if (!parsed.success) return null;
      // WhatsApp senders come as `whatsapp:+1809…`; the session holds the bare E.164.
      const sender = SENDER.exec(parsed.data.From.trim());
      if (!sender) return null;
      return { id: parsed.data.MessageSid, from: sender[1]!, text: parsed.data.Body };
    },
  };
}
