import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { InboundMessage, ReverseOtpProvider } from './types.js';

/**
 * The built-in simulator speaks the shape a messaging vendor's webhook uses:
 *   POST /api/v1/webhooks/reverse-otp/simulator
 *   x-webhook-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *   { "event": "message.received", "data": { "id": "…", "from": "+1809…", "to": "+1809…", "text": "…", "received_at": "…" } }
 * Signatures older than five minutes are refused, so a captured call cannot be replayed later; within
 * them, the message id (or the body's digest) makes a replay a no-op (modules/webhooks).
 */
export const SIGNATURE_HEADER = 'x-webhook-signature';
const TOLERANCE_SECONDS = 300;

const inboundSchema = z.object({
  event: z.literal('message.received'),
  data: z.object({
    id: z.string().min(1).max(64).optional(),
    from: z.string().min(1).max(32),
    to: z.string().max(32).optional(),
    text: z.string().max(1000),
  }),
});

export function signWebhook(key: Buffer, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const digest = createHmac('sha256', key).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

export function createSimulatorReverseOtp(
  destination: string,
  key: Buffer,
): ReverseOtpProvider & { sign: (rawBody: string) => string } {
  return {
    name: 'simulator',
    destination,
    sign: (rawBody) => signWebhook(key, rawBody),
    verifySignature(rawBody, headers) {
      const header = headers[SIGNATURE_HEADER];
      if (typeof header !== 'string') return false;
      const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
      const timestamp = Number(parts.t);
      if (!Number.isInteger(timestamp) || !parts.v1) return false;
      if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
      const expected = Buffer.from(signWebhook(key, rawBody, timestamp).split('v1=')[1]!, 'hex');
      const given = Buffer.from(parts.v1, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    parseInbound(payload): InboundMessage | null {
      const parsed = inboundSchema.safeParse(payload);
      if (!parsed.success) return null;
      const { id, from, text } = parsed.data.data;
      return { id: id ?? null, from, text };
    },
  };
}
