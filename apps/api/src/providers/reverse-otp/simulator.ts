import { z } from 'zod';
import { signWebhook, verifySignedWebhook } from '../simulator-signature.js';
import type { InboundMessage, ReverseOtpProvider } from './types.js';

export { SIGNATURE_HEADER, signWebhook } from '../simulator-signature.js';

/**
 * The built-in simulator speaks the shape a messaging vendor's webhook uses:
 *   POST /api/v1/webhooks/reverse-otp/simulator
 *   x-webhook-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *   { "event": "message.received", "data": { "id": "…", "from": "+1809…", "to": "+1809…", "text": "…", "received_at": "…" } }
 * (providers/simulator-signature.ts); within the five minutes a signature holds, the message id (or
 * the body's digest) makes a replay a no-op (modules/webhooks).
 */
const inboundSchema = z.object({
  event: z.literal('message.received'),
  data: z.object({
    id: z.string().min(1).max(64).optional(),
    from: z.string().min(1).max(32),
    to: z.string().max(32).optional(),
    text: z.string().max(1000),
  }),
});

export function createSimulatorReverseOtp(
  destination: string,
  key: Buffer,
): ReverseOtpProvider & { sign: (rawBody: string) => string } {
  return {
    name: 'simulator',
    destination,
    sign: (rawBody) => signWebhook(key, rawBody),
    verifySignature: (rawBody, headers) => verifySignedWebhook(key, rawBody, headers),
    parseInbound(payload): InboundMessage | null {
      const parsed = inboundSchema.safeParse(payload);
      if (!parsed.success) return null;
      const { id, from, text } = parsed.data.data;
      return { id: id ?? null, from, text };
    },
  };
}
