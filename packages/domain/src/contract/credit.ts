import { z } from 'zod';
import { callsSharing, defineCall, refusals } from './call.js';
import { preApprovalSchema, stepAnswerSchema, userParams } from './common.js';
import {
  confirmNipRoute,
  consentsRoute,
  consentTextRoute,
  recordAdvisorEventRoute,
  savePasswordRoute,
  sendNipRoute,
} from './routes/credit.js';

/** GET /v1/consents/text[?person_type=collateral] (a guarantor's text) */
export const consentTextQuery = z.object({ person_type: z.enum(['titular', 'collateral']).default('titular') });
export const consentTextResponse = z.object({
  data: z.object({ version: z.string(), text: z.string(), sha256: z.string() }),
});
export type ConsentText = z.infer<typeof consentTextResponse>['data'];

/** POST /v1/users/:id/:type/nip */
export const nipSentResponse = z.object({
  data: z.object({ expires_at: z.string(), resend_after_seconds: z.number(), default_nip: z.string().optional() }),
});
export type NipSent = z.infer<typeof nipSentResponse>['data'];

/** PUT /v1/users/:id/:type/nip (answer: confirmNipResponse; 422 not eligible) */
export const confirmNipBody = z.object({
  nip: z.string().regex(/^\d{4}$/, 'El NIP tiene 4 dígitos.'),
  consent_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type ConfirmNipPayload = z.input<typeof confirmNipBody>;
/** The step answer, with the pre-approved amount when the decision approved (the next screen shows it). */
export const confirmNipResponse = z.object({
  data: stepAnswerSchema.shape.data.extend({ pre_approval: preApprovalSchema.nullable() }),
});
export type ConfirmNipAnswer = z.infer<typeof confirmNipResponse>;

/** GET /v1/users/:id/:type/consents */
export const consentsResponse = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      person_type: z.string(),
      consent_version: z.string(),
      consent_text: z.string(),
      consent_text_sha256: z.string(),
      created_at: z.string(),
      ip: z.string(),
      user_agent: z.string().nullable(),
      pin_verified: z.boolean(),
      bureau_folio: z.string(),
      authorized_until: z.string(),
    }),
  ),
});
export type Consents = z.infer<typeof consentsResponse>;

/** PUT /v1/users/:id/:type/password (answer: stepAnswerSchema) */
export const passwordBody = z.object({
  password: z.string().max(20),
  password_confirmation: z.string().max(20).optional(),
});
export type PasswordPayload = z.input<typeof passwordBody>;

/** POST /v1/users/:id/:type/advisor-events */
export const advisorEventBody = z.object({ contact_type: z.enum(['CALL_ADVISER', 'WITH_ADVISER', 'WHATSAPP_CHAT']) });
export type AdvisorEventPayload = z.input<typeof advisorEventBody>;
export type ContactType = AdvisorEventPayload['contact_type'];
export const advisorEventResponse = z.object({ data: z.object({ contact_type: z.string(), created_at: z.string() }) });
export type AdvisorEvent = z.infer<typeof advisorEventResponse>;

const creditRefusals = refusals(400, 401, 403, 409, 422, 429);

export const consentTextCall = defineCall(consentTextRoute, {
  query: consentTextQuery,
  responses: { 200: consentTextResponse },
});

/** A call on the shopkeeper's application: its params, the credit refusals. */
const creditCall = callsSharing({ params: userParams }, creditRefusals);

export const sendNipCall = creditCall(sendNipRoute, {}, { 200: nipSentResponse });
export const confirmNipCall = creditCall(confirmNipRoute, { body: confirmNipBody }, { 200: confirmNipResponse });
export const consentsCall = creditCall(consentsRoute, {}, { 200: consentsResponse });
/** 503 while the password hashes are all busy (the request may be repeated). */
export const savePasswordCall = creditCall(
  savePasswordRoute,
  { body: passwordBody },
  { 200: stepAnswerSchema, ...refusals(503) },
);
export const recordAdvisorEventCall = creditCall(
  recordAdvisorEventRoute,
  { body: advisorEventBody },
  { 201: advisorEventResponse },
);
