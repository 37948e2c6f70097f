import { randomUUID } from 'node:crypto';
import type { MessageChannel } from '@provee/domain';
import { z } from 'zod';
import { signWebhook, verifySignedWebhook } from '../simulator-signature.js';
import type { DeliveryReport, MessageWebhooks } from './types.js';

/**
 * The simulators' webhooks, signed as the reverse-OTP simulator's are (providers/simulator-signature.ts):
 *   { "event": "message.status", "data": { "id": "SIM…", "status": "delivered", "error_code": null } }
 *   { "event": "message.received", "data": { "id": "…", "from": "+1809…", "channel": "whatsapp", "text": "BAJA", "button": false } }
 */
const statusSchema = z.object({
  event: z.literal('message.status'),
  data: z.object({
    id: z.string().min(1).max(64),
    status: z.enum(['queued', 'sent', 'delivered', 'read', 'failed', 'undelivered']),
    error_code: z.string().max(16).nullable().optional(),
  }),
});
const replySchema = z.object({
  event: z.literal('message.received'),
  data: z.object({
    id: z.string().min(1).max(64),
    from: z.string().regex(/^\+\d{8,15}$/),
    channel: z.enum(['whatsapp', 'sms']),
    text: z.string().max(1600),
    button: z.boolean().optional(),
  }),
});

/** A simulated number has no WhatsApp when it ends in 0000: its WhatsApp messages fail (Twilio's 63003). */
export const hasNoWhatsApp = (e164: string) => e164.endsWith('0000');

/** The statuses the simulator reports for a message, in order. */
function simulatedStatuses(channel: MessageChannel, to: string): Omit<DeliveryReport, 'providerMessageId'>[] {
  if (channel === 'whatsapp' && hasNoWhatsApp(to)) return [{ status: 'failed', errorCode: '63003' }];
  const delivered = [
    { status: 'sent', errorCode: null },
    { status: 'delivered', errorCode: null },
  ] as const;
  return channel === 'whatsapp' ? [...delivered, { status: 'read', errorCode: null }] : [...delivered];
}

/** What the simulator reports of one message: the statuses, in order, to the callback it was given. */
export interface SimulatedReport {
  /** The status callback the sender gave (it names the message: `?m=`). */
  url: string;
  providerMessageId: string;
  statuses: Omit<DeliveryReport, 'providerMessageId'>[];
}

/**
 * The simulators' delivery reports: each simulated send hands its report to the sink the app
 * connects (a job of the queue, which posts it through the real status webhook).
 */
export interface SimulatedDelivery {
  report(
    channel: MessageChannel,
  ): (providerMessageId: string, to: string, statusCallback: string | undefined) => Promise<void>;
  connect(sink: (report: SimulatedReport) => Promise<void>): void;
}

export function createSimulatedDelivery(): SimulatedDelivery {
  let sink: ((report: SimulatedReport) => Promise<void>) | null = null;
  return {
    report: (channel) => async (providerMessageId, to, statusCallback) => {
      if (sink && statusCallback)
        await sink({ url: statusCallback, providerMessageId, statuses: simulatedStatuses(channel, to) });
    },
    connect(target) {
      sink = target;
    },
  };
}

/** The simulator's report as its webhook carries it. */
export const simulatedStatusBody = (providerMessageId: string, report: SimulatedReport['statuses'][number]) =>
  JSON.stringify({
    event: 'message.status',
    data: { id: providerMessageId, status: report.status, error_code: report.errorCode },
  });

export function createSimulatorMessageWebhooks(key: Buffer): MessageWebhooks & { sign(rawBody: string): string } {
  return {
    name: 'outbox',
    // The simulator reports in-process (a job of the queue posts to this path).
    statusCallbackUrl: '/api/v1/webhooks/messages/outbox/status',
    sign: (rawBody) => signWebhook(key, rawBody),
    verifySignature: (rawBody, headers) => verifySignedWebhook(key, rawBody, headers),
    parseStatus(payload) {
      const parsed = statusSchema.safeParse(payload);
      if (!parsed.success) return null;
      const { id, status, error_code: errorCode } = parsed.data.data;
      return { providerMessageId: id, status, errorCode: errorCode ?? null };
    },
    parseReply(payload) {
      const parsed = replySchema.safeParse(payload);
      if (!parsed.success) return null;
      return { ...parsed.data.data, button: parsed.data.data.button ?? false };
    },
  };
}

/** A reply as the simulator's webhook carries it (the dev inbox's "reply" form). */
export function simulatedReply(from: string, channel: MessageChannel, text: string, button = false): string {
  return JSON.stringify({ event: 'message.received', data: { id: randomUUID(), from, channel, text, button } });
}
