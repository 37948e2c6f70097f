import { z } from 'zod';
import { APPLICATION_EVENT_TYPES } from '../application-events.js';
import { PARTNER_SCOPES } from '../partner.js';
import { callsSharing, refusals } from './call.js';
import {
  createPartnerKeyRoute,
  createWebhookEndpointRoute,
  listPartnerKeysRoute,
  listWebhookEndpointsRoute,
  listWebhookSendsRoute,
  replayWebhookSendsRoute,
  revokePartnerKeyRoute,
  rotateWebhookSecretRoute,
  updateWebhookEndpointRoute,
} from './routes/integrations.js';

// ---- webhook endpoints ------------------------------------------------------------------------
const eventTypes = z.array(z.enum(APPLICATION_EVENT_TYPES, 'Elige tipos de evento de la lista.')).max(50);

export const webhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  /** The event types it receives; every type when empty. */
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
  /** Since when every send failed; null while it answers. */
  failing_since: z.string().nullable(),
  /** Until when the previous secret still signs too (a rotation's overlap), or null. */
  previous_secret_until: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

export const endpointParams = z.object({ endpointId: z.uuid('Destino inválido.') });
export const createWebhookEndpointBody = z.object({
  url: z.string().trim().min(1, '* Escribe la dirección.').max(2_000, '* La dirección es demasiado larga.'),
  description: z.string().trim().max(200, 'Usa como máximo 200 caracteres.').default(''),
  event_types: eventTypes.default([]),
});
export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointBody>;
export const updateWebhookEndpointBody = z.object({
  description: z.string().trim().max(200, 'Usa como máximo 200 caracteres.').optional(),
  event_types: eventTypes.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpointBody = z.input<typeof updateWebhookEndpointBody>;
export const rotateWebhookSecretBody = z.object({
  /** How long the previous secret still signs beside the new one (0: it stops at once). */
  overlap_hours: z.number().int().min(0, 'De 0 a 168 horas.').max(168, 'De 0 a 168 horas.').default(24),
});
export type RotateWebhookSecretBody = z.input<typeof rotateWebhookSecretBody>;

/** The endpoint with its signing secret: answered once, when it is made (created, rotated). */
export const webhookSecretResponse = z.object({
  data: z.object({ endpoint: webhookEndpointView, secret: z.string() }),
});
export type WebhookSecretAnswer = z.infer<typeof webhookSecretResponse>['data'];
export const webhookEndpointsResponse = z.object({
  data: z.object({ endpoints: z.array(webhookEndpointView), event_types: z.array(z.string()) }),
});
export type WebhookEndpointsView = z.infer<typeof webhookEndpointsResponse>['data'];

export const webhookSendView = z.object({
  id: z.string(),
  event_id: z.string(),
  type: z.string(),
  application_id: z.string(),
  sequence: z.number(),
  status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
  attempts: z.number(),
  /** The receiver's last answer (its HTTP status), or null when none came. */
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookSendView = z.infer<typeof webhookSendView>;
export const webhookSendsResponse = z.object({ data: z.array(webhookSendView) });

/** One send again, or every send whose last try failed since a time. */
export const replayWebhookSendsBody = z.union([
  z.object({ send_id: z.uuid('Entrega inválida.') }),
  z.object({ failed_since: z.iso.datetime({ offset: true, message: 'Indica desde cuándo (fecha y hora).' }) }),
]);
export type ReplayWebhookSendsBody = z.input<typeof replayWebhookSendsBody>;
export const replayResponse = z.object({ data: z.object({ replayed: z.number() }) });

// ---- partner keys -----------------------------------------------------------------------------
export const partnerKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  scopes: z.array(z.enum(PARTNER_SCOPES)),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});
export type PartnerKeyView = z.infer<typeof partnerKeyView>;
export const keyParams = z.object({ keyId: z.uuid('Llave inválida.') });
export const createPartnerKeyBody = z.object({
  name: z.string().trim().min(1, '* Ponle un nombre a la llave.').max(100, 'Usa como máximo 100 caracteres.'),
  scopes: z.array(z.enum(PARTNER_SCOPES, 'Elige permisos de la lista.')).min(1, '* Elige al menos un permiso.'),
  /** Days it works; null: until revoked. */
  expires_in_days: z.number().int().min(1, 'De 1 a 730 días.').max(730, 'De 1 a 730 días.').nullable().default(365),
});
export type CreatePartnerKeyBody = z.input<typeof createPartnerKeyBody>;
export const partnerKeysResponse = z.object({ data: z.array(partnerKeyView) });
/** The key itself: answered once, when it is made. */
export const partnerKeyCreatedResponse = z.object({ data: z.object({ key: partnerKeyView, token: z.string() }) });
export type PartnerKeyCreated = z.infer<typeof partnerKeyCreatedResponse>['data'];
export const partnerKeyResponse = z.object({ data: partnerKeyView });

// ---- calls -------------------------------------------------------------------------------------
const adminCall = callsSharing({}, refusals(400, 401, 403, 404, 409));
export const listWebhookEndpointsCall = adminCall(listWebhookEndpointsRoute, {}, { 200: webhookEndpointsResponse });
export const createWebhookEndpointCall = adminCall(
  createWebhookEndpointRoute,
  { body: createWebhookEndpointBody },
  { 200: webhookSecretResponse },
);
export const updateWebhookEndpointCall = adminCall(
  updateWebhookEndpointRoute,
  { params: endpointParams, body: updateWebhookEndpointBody },
  { 200: z.object({ data: webhookEndpointView }) },
);
export const rotateWebhookSecretCall = adminCall(
  rotateWebhookSecretRoute,
  { params: endpointParams, body: rotateWebhookSecretBody },
  { 200: webhookSecretResponse },
);
export const listWebhookSendsCall = adminCall(
  listWebhookSendsRoute,
  { params: endpointParams },
  { 200: webhookSendsResponse },
);
export const replayWebhookSendsCall = adminCall(
  replayWebhookSendsRoute,
  { params: endpointParams, body: replayWebhookSendsBody },
  { 200: replayResponse },
);
export const listPartnerKeysCall = adminCall(listPartnerKeysRoute, {}, { 200: partnerKeysResponse });
export const createPartnerKeyCall = adminCall(
  createPartnerKeyRoute,
  { body: createPartnerKeyBody },
  { 200: partnerKeyCreatedResponse },
);
export const revokePartnerKeyCall = adminCall(
  revokePartnerKeyRoute,
  { params: keyParams },
  { 200: partnerKeyResponse },
);
