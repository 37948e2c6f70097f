import { z } from 'zod';
import { PRIVACY_REQUEST_KINDS, PRIVACY_REQUEST_STATES, RECTIFIABLE_FIELDS } from '../privacy-requests.js';
import { callsSharing, defineCall, refusals } from './call.js';
import { userParams } from './common.js';
import {
  erasePrivacyRequestRoute,
  filePrivacyRequestRoute,
  myDataPdfRoute,
  myDataRoute,
  myPrivacyRequestsRoute,
  privacyQueueRoute,
  privacyRequestDetailRoute,
  rectifyPrivacyRequestRoute,
  refusePrivacyRequestRoute,
  startPrivacyRequestRoute,
} from './routes/privacy.js';

/** A request as the applicant and the staff see it. */
export const privacyRequestView = z.object({
  id: z.string(),
  folio: z.string(),
  application_id: z.string(),
  kind: z.enum(PRIVACY_REQUEST_KINDS),
  reason: z.string(),
  field: z.enum(RECTIFIABLE_FIELDS).nullable(),
  state: z.enum(PRIVACY_REQUEST_STATES),
  /** The last day to answer, 'YYYY-MM-DD'. */
  deadline: z.string(),
  /** Past its deadline and still open. */
  overdue: z.boolean(),
  refusal_reason: z.string().nullable(),
  resolution: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type PrivacyRequestView = z.infer<typeof privacyRequestView>;

/** What is held about the person (the data map's export): the application's facts, then each category's fields. */
export const personalDataExport = z.object({
  application: z.looseObject({
    id: z.string(),
    status: z.string(),
    next_step: z.string(),
    started_at: z.string(),
    /** The state and step in Spanish (the codes above stay for programs). */
    status_label: z.string().optional(),
    next_step_label: z.string().optional(),
    /** When the person's data was erased: then no category is listed, since nothing of theirs is held. */
    erased_at: z.string().nullable().optional(),
  }),
  categories: z.array(
    z.object({
      category: z.string(),
      label: z.string(),
      fields: z.array(
        z.object({
          source: z.string(),
          label: z.string(),
          basis: z.string(),
          retention: z.string(),
          value: z.unknown(),
        }),
      ),
    }),
  ),
});
export type PersonalDataExport = z.infer<typeof personalDataExport>;

const reasonText = z
  .string()
  .trim()
  .min(10, 'Cuéntanos el motivo con al menos 10 caracteres.')
  .max(1000, 'Usa como máximo 1000 caracteres.');

export const filePrivacyRequestBody = z
  .object({
    kind: z.enum(PRIVACY_REQUEST_KINDS, 'Elige qué quieres pedir.'),
    reason: reasonText,
    field: z.enum(RECTIFIABLE_FIELDS, 'Elige qué dato quieres corregir.').optional(),
  })
  .refine((body) => body.kind !== 'rectification' || body.field !== undefined, {
    path: ['field'],
    message: 'Elige qué dato quieres corregir.',
  });
export type FilePrivacyRequestBody = z.input<typeof filePrivacyRequestBody>;

const mineCall = callsSharing({ params: userParams }, refusals(400, 401, 403, 404, 409));
export const myDataCall = mineCall(myDataRoute, {}, { 200: z.object({ data: personalDataExport }) });
export const myDataPdfCall = defineCall(myDataPdfRoute, {
  params: userParams,
  responses: {
    200: { description: 'PDF', content: { 'application/pdf': { schema: z.string() } } },
    ...refusals(401, 403, 404),
  },
});
export const myPrivacyRequestsCall = mineCall(
  myPrivacyRequestsRoute,
  {},
  { 200: z.object({ data: z.object({ items: z.array(privacyRequestView) }) }) },
);
export const filePrivacyRequestCall = mineCall(
  filePrivacyRequestRoute,
  { body: filePrivacyRequestBody },
  { 201: z.object({ data: privacyRequestView }) },
);

// ---- staff ------------------------------------------------------------------------------------
export const privacyRequestParams = z.object({ requestId: z.uuid('Solicitud de privacidad inválida.') });
export const privacyQueueQuery = z.object({
  /** Open requests only (the default), or every request. */
  state: z.enum(['open', 'all']).default('open'),
});
export const privacyQueueResponse = z.object({ data: z.object({ items: z.array(privacyRequestView) }) });
export const privacyRequestDetailResponse = z.object({
  data: z.object({
    request: privacyRequestView,
    /** The person's data, as the applicant would download it (null once erased). */
    person: personalDataExport.nullable(),
  }),
});
export const privacyRequestResponse = z.object({ data: privacyRequestView });

export const rectifyBody = z.object({
  field: z.enum(RECTIFIABLE_FIELDS, 'Elige el dato que vas a corregir.'),
  value: z.string().trim().min(1, 'Escribe el valor correcto.').max(200, 'Usa como máximo 200 caracteres.'),
});
export const refuseBody = z.object({
  legal_reason: z
    .string()
    .trim()
    .min(10, 'Escribe el fundamento legal con al menos 10 caracteres.')
    .max(1000, 'Usa como máximo 1000 caracteres.'),
});

const staffCall = callsSharing({}, refusals(400, 401, 403, 404, 409));
export const privacyQueueCall = staffCall(
  privacyQueueRoute,
  { query: privacyQueueQuery },
  { 200: privacyQueueResponse },
);
export const privacyRequestDetailCall = staffCall(
  privacyRequestDetailRoute,
  { params: privacyRequestParams },
  { 200: privacyRequestDetailResponse },
);
export const startPrivacyRequestCall = staffCall(
  startPrivacyRequestRoute,
  { params: privacyRequestParams },
  { 200: privacyRequestResponse },
);
export const rectifyPrivacyRequestCall = staffCall(
  rectifyPrivacyRequestRoute,
  { params: privacyRequestParams, body: rectifyBody },
  // 410: the person was erased meanwhile; nothing of theirs is written back.
  { 200: privacyRequestResponse, ...refusals(410) },
);
export const erasePrivacyRequestCall = staffCall(
  erasePrivacyRequestRoute,
  { params: privacyRequestParams },
  { 200: privacyRequestResponse },
);
export const refusePrivacyRequestCall = staffCall(
  refusePrivacyRequestRoute,
  { params: privacyRequestParams, body: refuseBody },
  { 200: privacyRequestResponse },
);
