import { z } from 'zod';
import { APPLICATION_EVENT_TYPES, type ApplicationEventType } from '../application-events.js';
import { LENDER_OUTCOMES } from '../lender-decision.js';
import { AVAL_TYPES } from '../application.js';
import { applicationStatusSchema, nextStepSchema } from './common.js';

/**
 * What the lender's systems hear about an application (issue 30), one schema per event type: the
 * body of a webhook and an item of the partner API's events feed alike. Ids and states only: never
 * a tax id, a birth date, a phone number or an image. A change a receiver could trip on raises
 * APPLICATION_EVENT_VERSION.
 */
const where = z.object({ step: nextStepSchema, status: applicationStatusSchema });
const person = z.enum(['titular', 'guarantor']);
const avalType = z.enum(AVAL_TYPES);
const nullableString = z.string().nullable();
const verificationData = z.object({
  verification_id: z.string(),
  signer_id: z.string(),
  person_type: z.enum(['titular', 'collateral']),
  aval_id: nullableString,
  status: z.string(),
});

export const APPLICATION_EVENT_DATA = {
  'application.created': z.object({}),
  'application.step_changed': z.object({ transition: z.string(), from: where, to: where }),
  'consent.given': z.object({ person: z.literal('titular'), folio: nullableString, version: nullableString }),
  'bureau.answered': z.object({ person, aval_id: nullableString.optional(), bureau_report_folio: nullableString }),
  'decision.made': z.object({
    decision_id: z.string(),
    result: z.enum(['APPROVED', 'REJECTED']),
    amount: z.number().nullable(),
    currency: nullableString,
    /** The policy's rules that refused, by name (empty when approved). */
    reasons: z.array(z.string()),
    policy_version: nullableString,
  }),
  'guarantor.named': z.object({ aval_id: z.string(), aval_type: avalType }),
  'guarantor.consented': z.object({ aval_id: z.string(), folio: nullableString, channel: nullableString }),
  'guarantor.decided': z.object({
    decision_id: z.string(),
    aval_id: z.string(),
    aval_type: avalType,
    result: z.enum(['APPROVED', 'REJECTED']),
    reasons: z.array(z.string()),
    policy_version: nullableString,
  }),
  'identity.verified': verificationData,
  'identity.rejected': verificationData,
  'identity.under_review': verificationData,
  'contract.signed': z.object({
    contract_id: z.string(),
    /** The SHA-256 of the signed PDF with this signature (what GET …/contract serves). */
    contract_sha256: z.string(),
    signer_id: z.string(),
    person_type: z.enum(['titular', 'collateral']),
    aval_id: nullableString,
  }),
  /** Everybody signed: the lender's seal is on the PDF (issue 36); its hash is the sealed file's. */
  'contract.sealed': z.object({
    contract_id: z.string(),
    contract_sha256: z.string(),
    /** Sealed with a development certificate (never in production). */
    development: z.boolean(),
  }),
  /** The seal's RFC 3161 time-stamp went in: the file kept (and served) from now has this SHA-256. */
  'contract.timestamped': z.object({
    contract_id: z.string(),
    contract_sha256: z.string(),
    /** The token's time (genTime), ISO 8601. */
    time: z.string(),
  }),
  /** Mexico: the NOM-151 conservation certificate of the kept file was issued. */
  'contract.nom151_issued': z.object({
    contract_id: z.string(),
    contract_sha256: z.string(),
    provider: z.string(),
    reference: z.string(),
  }),
  'lender_decision.recorded': z.object({
    lender_decision_id: z.string(),
    outcome: z.enum(LENDER_OUTCOMES),
    amount: z.number().nullable(),
    currency: nullableString,
    term_months: z.number().nullable(),
    annual_rate: z.number().nullable(),
    reason: nullableString,
    reference: nullableString,
  }),
  /**
   * The applicant's personal data was erased (their request, or the retention schedule): the
   * receiver erases its own copy. `legal_term_passed`: a signed contract's legal minimum had run out.
   */
  'application.erased': z.object({ aval_ids: z.array(z.string()), legal_term_passed: z.boolean() }),
} as const satisfies Record<ApplicationEventType, z.ZodType>;

/** One event, as a webhook's body and a feed item: Standard Webhooks' `type`, `timestamp`, `data`. */
const messageOf = <T extends ApplicationEventType>(type: T) =>
  z.object({
    /** The event's id (`evt_…`), also the webhook's `webhook-id`: a receiver drops one it has seen. */
    id: z.string(),
    type: z.literal(type),
    version: z.number(),
    timestamp: z.string(),
    application_id: z.string(),
    /** 1, 2, 3… per application, in the order the changes happened. */
    sequence: z.number(),
    data: APPLICATION_EVENT_DATA[type],
  });
const messages = APPLICATION_EVENT_TYPES.map(messageOf) as unknown as [
  ReturnType<typeof messageOf<'application.created'>>,
  ...ReturnType<typeof messageOf<ApplicationEventType>>[],
];
export const applicationEventMessage = z.discriminatedUnion('type', messages);
export type ApplicationEventMessage = z.infer<typeof applicationEventMessage>;
