import { z } from 'zod';
import { AVAL_TYPES } from '../application.js';
import { parseIsoDate } from '../registration/dates.js';
import { PERSON_TYPES, SIGNER_STATES } from '../signing.js';
import { callsSharing, defineCall, refusals } from './call.js';
import { applicationStatusSchema, nextStepSchema } from './common.js';
import { applicationEventMessage } from './events.js';
import { lenderDecisionBody, lenderDecisionView } from './lending.js';
import { contractEvidenceResponse } from './signing.js';
import {
  partnerApplicationRoute,
  partnerApplicationsRoute,
  partnerContractEvidenceRoute,
  partnerContractRoute,
  partnerDecisionRoute,
  partnerEventsRoute,
  partnerExternalIdRoute,
} from './routes/partner.js';

/**
 * The API of the lender's own systems (issue 30) under /partner/v1, with a partner key as the
 * bearer: applications with cursor paging, one application, the events feed (what the webhooks
 * send), the contract and its evidence, the lender's own id, and the decision after
 * PENDING_APPROVAL. 401: no key, or one unknown, revoked or expired; 403: a key without the scope.
 */
const cursor = z.string().trim().min(1).max(200, 'Cursor inválido.');
const limit = z.coerce.number().int().min(1, 'De 1 a 200.').max(200, 'De 1 a 200.').default(50);

/** A real calendar day (no 31 February) from 1970 on: what the database can compare. */
const realInstant = (value: string) => {
  const date = parseIsoDate(value.slice(0, 10));
  return date !== undefined && date.year >= 1970;
};

export const partnerApplicationsQuery = z.object({
  /** Only applications changed at or after this time (ISO 8601). */
  updated_since: z.iso
    .datetime({ offset: true, message: 'Indica una fecha y hora ISO 8601.' })
    .refine(realInstant, 'Indica una fecha real, desde 1970.')
    .optional(),
  /** The `next_cursor` of the page before. */
  cursor: cursor.optional(),
  limit,
});
export type PartnerApplicationsQuery = z.input<typeof partnerApplicationsQuery>;

export const partnerApplicationParams = z.object({ applicationId: z.uuid('Solicitud inválida.') });

const creditDecision = z.object({
  id: z.string(),
  /** The guarantor the decision is on, or null for the shopkeeper's. */
  aval_id: z.string().nullable(),
  result: z.enum(['APPROVED', 'REJECTED']),
  amount: z.number(),
  currency: z.string(),
  policy_version: z.string(),
  /** The policy's rules that refused, by name, with the policy's reason. */
  reasons: z.array(z.object({ rule: z.string(), reason: z.string().nullable() })),
  created_at: z.string(),
});

/** One application as the lender's systems read it; tax id and birth date masked without `personal_data:read`. */
export const partnerApplicationView = z.object({
  id: z.string(),
  /** The lender's own id for it (PUT …/external-id), or null. */
  external_id: z.string().nullable(),
  country: z.string(),
  next_step: nextStepSchema,
  status: applicationStatusSchema,
  phone: z.string(),
  person: z.object({
    name: z.string().nullable(),
    lastname: z.string().nullable(),
    maternal_lastname: z.string().nullable(),
    tax_id: z.string().nullable(),
    birth_date: z.string().nullable(),
  }),
  business: z
    .object({
      name: z.string().nullable(),
      business_type: z.string().nullable(),
      business_age_years: z.number().nullable(),
    })
    .nullable(),
  credit_decisions: z.array(creditDecision),
  lender_decisions: z.array(lenderDecisionView),
  guarantors: z.array(
    z.object({
      id: z.string(),
      aval_type: z.enum(AVAL_TYPES),
      name: z.string().nullable(),
      status: z.string(),
      created_at: z.string(),
    }),
  ),
  signers: z.array(
    z.object({
      id: z.string(),
      person_type: z.enum(PERSON_TYPES),
      aval_id: z.string().nullable(),
      name: z.string(),
      state: z.enum(SIGNER_STATES),
      signed_at: z.string().nullable(),
    }),
  ),
  contract: z.object({ id: z.string(), unsigned_sha256: z.string(), signed_sha256: z.string().nullable() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PartnerApplication = z.infer<typeof partnerApplicationView>;

/** An application in the list: where it stands; GET …/applications/:id has the rest. */
export const partnerApplicationSummary = partnerApplicationView.pick({
  id: true,
  external_id: true,
  country: true,
  next_step: true,
  status: true,
  created_at: true,
  updated_at: true,
});
export const partnerApplicationsResponse = z.object({
  data: z.array(partnerApplicationSummary),
  /**
   * Pass it as `cursor` for the next page, and keep the last one: asked again later, it gives what
   * changed since (the same value again when nothing did; null while nothing was listed at all).
   */
  next_cursor: z.string().nullable(),
});
export const partnerApplicationResponse = z.object({ data: partnerApplicationView });

export const partnerExternalIdBody = z.object({
  external_id: z
    .string('Escribe el identificador.')
    .trim()
    .min(1, 'Escribe el identificador.')
    .max(100, 'Usa como máximo 100 caracteres.')
    .regex(/^[\w.:/-]+$/, 'Usa letras, números y . _ - : / solamente.')
    .nullable(),
});
export type PartnerExternalIdBody = z.input<typeof partnerExternalIdBody>;

export const partnerDecisionResponse = z.object({
  data: z.object({
    decision: lenderDecisionView,
    next_step: nextStepSchema,
    status: applicationStatusSchema,
  }),
});

export const partnerEventsQuery = z.object({
  /** The `next_cursor` of the page before; from the first event when absent. */
  after: z
    .string()
    .regex(/^\d{1,20}\.\d{1,19}$/, 'Cursor inválido: usa el next_cursor de la página anterior.')
    .optional(),
  application_id: z.uuid('Solicitud inválida.').optional(),
  limit,
});
export type PartnerEventsQuery = z.input<typeof partnerEventsQuery>;
export const partnerEventsResponse = z.object({
  data: z.array(applicationEventMessage),
  /**
   * Pass it as `after` for what follows (the same value again when nothing new came yet; null while
   * there is no event at all). Events come in the order their changes committed; within one
   * application, order them by `sequence`.
   */
  next_cursor: z.string().nullable(),
});

// ---- calls -------------------------------------------------------------------------------------
const partnerRefusals = refusals(400, 401, 403, 404, 429);
const applicationCall = callsSharing({ params: partnerApplicationParams }, partnerRefusals);

export const partnerApplicationsCall = defineCall(partnerApplicationsRoute, {
  query: partnerApplicationsQuery,
  responses: { 200: partnerApplicationsResponse, ...partnerRefusals },
});
export const partnerApplicationCall = applicationCall(partnerApplicationRoute, {}, { 200: partnerApplicationResponse });
/** 409: another application already has this external id. Answers the id it set, nothing more. */
export const partnerExternalIdCall = applicationCall(
  partnerExternalIdRoute,
  { body: partnerExternalIdBody },
  { 200: z.object({ data: z.object({ id: z.string(), external_id: z.string().nullable() }) }), ...refusals(409) },
);
/**
 * 409: the application is not where the decision belongs (or another decision came first).
 * 410 PERSON_ERASED: the application was erased at its person's request or by the retention schedule;
 * it takes no decision any more (its states and history stay readable).
 */
export const partnerDecisionCall = applicationCall(
  partnerDecisionRoute,
  { body: lenderDecisionBody },
  { 200: partnerDecisionResponse, ...refusals(409, 410) },
);
export const partnerContractCall = applicationCall(
  partnerContractRoute,
  {},
  { 200: { description: 'PDF', content: { 'application/pdf': { schema: z.string() } } } },
);
export const partnerContractEvidenceCall = applicationCall(
  partnerContractEvidenceRoute,
  {},
  { 200: contractEvidenceResponse },
);
export const partnerEventsCall = defineCall(partnerEventsRoute, {
  query: partnerEventsQuery,
  responses: { 200: partnerEventsResponse, ...partnerRefusals },
});
