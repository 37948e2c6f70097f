import { z } from 'zod';
import { defineCall, refusals } from './call.js';
import {
  auditTrailRoute,
  clientIpRoute,
  healthRoute,
  metamapWebhookRoute,
  reverseOtpWebhookRoute,
} from './routes/operations.js';

/** GET /health: the service and its database (503 when the database does not answer). */
export const healthResponse = z.object({ status: z.literal('ok'), db: z.enum(['pglite', 'postgres']) });
export const healthCall = defineCall(healthRoute, { responses: { 200: healthResponse } });

/** GET /v1/ip: the caller's address as this server sees it (behind a proxy only with TRUST_PROXY=true). */
export const clientIpResponse = z.object({ ip: z.string() });
export const clientIpCall = defineCall(clientIpRoute, { responses: { 200: clientIpResponse } });

/** GET /ops/v1/audit/:applicationId: an application's audit trail and whether its chain is intact. */
export const auditTrailParams = z.object({ applicationId: z.string().min(1).max(100) });
const auditEventSchema = z.object({
  id: z.number(),
  actor: z.string(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  prev_hash: z.string().nullable(),
  hash: z.string(),
});
export const auditTrailResponse = z.object({
  data: z.object({
    chain: z.object({
      valid: z.boolean(),
      events: z.number(),
      broken_at: z.number().optional(),
      reason: z.string().optional(),
    }),
    events: z.array(auditEventSchema),
  }),
});
export const auditTrailCall = defineCall(auditTrailRoute, {
  params: auditTrailParams,
  responses: { 200: auditTrailResponse },
});

/**
 * POST /v1/webhooks/reverse-otp/:provider: a message the vendor received (JSON from the simulator,
 * a form from Twilio; the signature covers the raw body). Twilio is answered with empty TwiML.
 */
export const reverseOtpWebhookParams = z.object({ provider: z.string().max(40) });
export const reverseOtpMatchedResponse = z.object({ data: z.object({ matched: z.boolean() }) });
export const reverseOtpWebhookCall = defineCall(reverseOtpWebhookRoute, {
  params: reverseOtpWebhookParams,
  body: z.unknown(),
  responses: {
    200: {
      description: 'Mensaje recibido (Twilio recibe TwiML vacío)',
      content: { 'application/json': { schema: reverseOtpMatchedResponse }, 'text/xml': { schema: z.string() } },
    },
  },
});

/** POST /v1/webhooks/identity/metamap: MetaMap's event (HMAC-SHA256 of the raw body in x-signature). */
export const metamapOutcomeResponse = z.object({ data: z.object({ outcome: z.string() }) });
export const metamapWebhookCall = defineCall(metamapWebhookRoute, {
  body: z.unknown(),
  responses: { 200: metamapOutcomeResponse, ...refusals(400, 401, 404, 413, 429) },
});
