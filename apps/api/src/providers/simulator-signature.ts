import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How the built-in simulators sign the webhooks they call (as messaging vendors do):
 *   x-webhook-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 * Signatures older than five minutes are refused, so a captured call cannot be replayed later.
 */
export const SIGNATURE_HEADER = 'x-webhook-signature';
const TOLERANCE_SECONDS = 300;

export function signWebhook(key: Buffer, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const digest = createHmac('sha256', key).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

export function verifySignedWebhook(
  key: Buffer,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
): boolean {
  const header = headers[SIGNATURE_HEADER];
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signWebhook(key, rawBody, timestamp).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
