import { z } from 'zod';
import { EMPTY_TWIML, verifyTwilioSignature } from '../twilio-signature.js';
import type { DeliveryReport, MessageWebhooks } from './types.js';

/**
 * Twilio's status callbacks (https://www.twilio.com/docs/messaging/guides/track-outbound-message-status):
 * a form POST to the message's StatusCallback for each change, with MessageSid, MessageStatus
 * (queued, sending, sent, delivered, read, undelivered, failed…) and ErrorCode on a failure; and
 * replies to our senders posted to the sender's "A message comes in" URL (From, Body, MessageSid;
 * ButtonText and ButtonPayload when a template's quick-reply button was tapped). Both signed with
 * X-Twilio-Signature.
 */
const STATUSES: Record<string, DeliveryReport['status']> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'undelivered',
  failed: 'failed',
};

const statusSchema = z.object({
  MessageSid: z.string().min(1).max(64),
  MessageStatus: z.string().max(32),
  ErrorCode: z.string().max(16).optional(),
});

const SENDER = /^(whatsapp:)?(\+\d{8,15})$/;

const replySchema = z.object({
  MessageSid: z.string().min(1).max(64),
  From: z.string().max(64),
  Body: z.string().max(1600).optional(),
  ButtonText: z.string().max(200).optional(),
  ButtonPayload: z.string().max(200).optional(),
});

/** `publicBaseUrl`: where Twilio reaches this server; without it Twilio is given no status callback. */
export function createTwilioMessageWebhooks(options: {
  authToken: string;
  publicBaseUrl: string | undefined;
}): MessageWebhooks {
  const base = options.publicBaseUrl?.replace(/\/+$/, '');
  return {
    name: 'twilio',
    statusCallbackUrl: base ? `${base}/api/v1/webhooks/messages/twilio/status` : undefined,
    acknowledgement: { contentType: 'text/xml; charset=utf-8', body: EMPTY_TWIML },
    verifySignature: (rawBody, headers, requestUrl) =>
      !!base &&
      verifyTwilioSignature({ authToken: options.authToken, publicBaseUrl: base }, rawBody, headers, requestUrl),
    parseStatus(payload) {
      const parsed = statusSchema.safeParse(payload);
      const status = parsed.success ? STATUSES[parsed.data.MessageStatus] : undefined;
      if (!parsed.success || !status) return null;
      return { providerMessageId: parsed.data.MessageSid, status, errorCode: parsed.data.ErrorCode || null };
    },
    parseReply(payload) {
      const parsed = replySchema.safeParse(payload);
      const sender = parsed.success ? SENDER.exec(parsed.data.From.trim()) : null;
      if (!parsed.success || !sender) return null;
      const button = parsed.data.ButtonPayload ?? parsed.data.ButtonText;
      return {
        id: parsed.data.MessageSid,
        from: sender[2]!,
        channel: sender[1] ? 'whatsapp' : 'sms',
        text: button ?? parsed.data.Body ?? '',
        button: button !== undefined,
      };
    },
  };
}
