import { z } from 'zod';
import { creditPolicySchema, POLICY_VERSION_STATUSES, policyDraftSchema } from '../credit-policy.js';
import { callsSharing, refusals } from './call.js';
import {
  activatePolicyRoute,
  createPolicyDraftRoute,
  discardPolicyDraftRoute,
  getBacktestRoute,
  getPolicyRoute,
  listPoliciesRoute,
  policyShadowRoute,
  publishPolicyRoute,
  savePolicyDraftRoute,
  setPolicyShadowRoute,
  startBacktestRoute,
} from './routes/policies.js';

// ---- versions ----------------------------------------------------------------------------------
export const policyVersionView = z.object({
  id: z.string(),
  number: z.number(),
  /** What decisions record as their policy version. */
  label: z.string(),
  status: z.enum(POLICY_VERSION_STATUSES),
  /** The version that decides now, and the one that runs beside it in shadow. */
  live: z.boolean(),
  shadow: z.boolean(),
  description: z.string(),
  author: z.object({ id: z.string().nullable(), name: z.string() }),
  based_on_number: z.number().nullable(),
  revision: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
  published_by: z.string().nullable(),
});
export type PolicyVersionView = z.infer<typeof policyVersionView>;

export const policyChangeView = z.object({ what: z.string(), before: z.string(), after: z.string() });

export const policyDetailView = policyVersionView.extend({
  document: creditPolicySchema,
  /** What it changes from the live version, rule by rule (empty for the live version itself). */
  changes_from_live: z.array(policyChangeView),
  live_label: z.string(),
  /** What the reader may do with it now (the API checks each again). */
  may_edit: z.boolean(),
  may_publish: z.boolean(),
  /** Why the reader may not publish it, when they may not (the four eyes, a role). */
  publish_refusal: z.string().nullable(),
  may_activate: z.boolean(),
});
export type PolicyDetailView = z.infer<typeof policyDetailView>;

export const policyParams = z.object({ policyId: z.uuid('Versión inválida.') });
export const policiesResponse = z.object({
  data: z.object({ country: z.string(), versions: z.array(policyVersionView) }),
});
export type PoliciesView = z.infer<typeof policiesResponse>['data'];
export const policyDetailResponse = z.object({ data: policyDetailView });

export const createPolicyDraftBody = z.object({
  /** The version to begin from; the live one when absent. */
  based_on: z.uuid('Versión inválida.').optional(),
});
export type CreatePolicyDraftBody = z.input<typeof createPolicyDraftBody>;

/** A draft's document as its author saves it: the version's label is the API's to give. */
export const savePolicyDraftBody = z.object({
  /** The revision the author edited (a save over a newer one is refused). */
  revision: z.number().int().min(1),
  document: policyDraftSchema,
});
export type SavePolicyDraftBody = z.input<typeof savePolicyDraftBody>;

export const publishPolicyBody = z.object({
  /** The revision the publisher read: a draft saved since is not published. */
  revision: z.number().int().min(1),
  /** Live decides from now on; shadow runs beside the live version, never acted on. */
  mode: z.enum(['live', 'shadow'], 'Elige publicar como vigente o en sombra.'),
});
export type PublishPolicyBody = z.input<typeof publishPolicyBody>;

// ---- backtests ---------------------------------------------------------------------------------
const day = z.iso
  .date('Indica la fecha (AAAA-MM-DD).')
  .refine((value) => value >= '2000-01-01' && value <= '2100-12-31', 'La fecha debe estar entre los años 2000 y 2100.');
export const startBacktestBody = z
  .object({
    /** The first and last day of the range, in the country's time zone (both included). */
    from: day,
    to: day,
    /** Only applications that came from this campaign source (utm_source). */
    utm_source: z.string().trim().max(100, 'Usa como máximo 100 caracteres.').optional(),
  })
  .refine((body) => body.from <= body.to, { path: ['to'], message: 'La fecha final es anterior a la inicial.' });
export type StartBacktestBody = z.input<typeof startBacktestBody>;

const outcomeCounts = z.object({ decisions: z.number(), approved: z.number(), approval_rate: z.number() });
export const backtestFlipView = z.object({
  decision_id: z.string(),
  application_id: z.string(),
  decided_at: z.string(),
  /** The live version's outcome and the tested version's. */
  live: z.enum(['APPROVED', 'REJECTED']),
  tested: z.enum(['APPROVED', 'REJECTED']),
  /** The rules of the version that refuses it. */
  reasons: z.array(z.string()),
});
export const backtestView = z.object({
  id: z.string(),
  policy_id: z.string(),
  policy_label: z.string(),
  /** The tested version's revision the backtest replayed (a draft may have been saved since). */
  revision: z.number(),
  live_label: z.string(),
  from: z.string(),
  to: z.string(),
  utm_source: z.string().nullable(),
  status: z.enum(['RUNNING', 'DONE', 'FAILED']),
  processed: z.number(),
  total: z.number(),
  result: z
    .object({
      /** As the decisions were made at the time, by whichever version was live then. */
      as_decided: outcomeCounts,
      live: outcomeCounts,
      tested: outcomeCounts,
      /** Approved by the live version, refused by the tested one; and the other way. */
      approved_to_rejected: z.number(),
      rejected_to_approved: z.number(),
      /** Decisions of the range whose inputs cannot be replayed (erased by the retention schedule, or older than an input): counted nowhere else. */
      skipped: z.number(),
      /** The first flips (by date), up to BACKTEST_FLIPS_LISTED. */
      flips: z.array(backtestFlipView),
      /** How often each rule refused, under each version. */
      reasons: z.array(z.object({ rule: z.string(), live: z.number(), tested: z.number() })),
      duration_ms: z.number(),
    })
    .nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type BacktestView = z.infer<typeof backtestView>;
export const backtestParams = z.object({ backtestId: z.uuid('Prueba inválida.') });
export const backtestResponse = z.object({ data: backtestView });

// ---- shadow ------------------------------------------------------------------------------------
export const policyShadowView = z.object({
  live: policyVersionView,
  shadow: policyVersionView.nullable(),
  /** Per day (the country's), the decisions the shadow version also judged and how many it agreed on. */
  days: z.array(z.object({ day: z.string(), decisions: z.number(), agreed: z.number(), agreement_rate: z.number() })),
});
export type PolicyShadowView = z.infer<typeof policyShadowView>;
export const policyShadowResponse = z.object({ data: policyShadowView });
export const setPolicyShadowBody = z.object({
  /** A published version to run in shadow; null stops the shadow run. */
  policy_id: z.uuid('Versión inválida.').nullable(),
});
export type SetPolicyShadowBody = z.input<typeof setPolicyShadowBody>;

// ---- calls -------------------------------------------------------------------------------------
const policyCall = callsSharing({}, refusals(400, 401, 403, 404, 409));
export const listPoliciesCall = policyCall(listPoliciesRoute, {}, { 200: policiesResponse });
export const getPolicyCall = policyCall(getPolicyRoute, { params: policyParams }, { 200: policyDetailResponse });
export const createPolicyDraftCall = policyCall(
  createPolicyDraftRoute,
  { body: createPolicyDraftBody },
  { 201: policyDetailResponse },
);
export const savePolicyDraftCall = policyCall(
  savePolicyDraftRoute,
  { params: policyParams, body: savePolicyDraftBody },
  { 200: policyDetailResponse },
);
export const discardPolicyDraftCall = policyCall(
  discardPolicyDraftRoute,
  { params: policyParams },
  { 200: policyDetailResponse },
);
export const publishPolicyCall = policyCall(
  publishPolicyRoute,
  { params: policyParams, body: publishPolicyBody },
  { 200: policyDetailResponse },
);
export const activatePolicyCall = policyCall(
  activatePolicyRoute,
  { params: policyParams },
  { 200: policyDetailResponse },
);
export const startBacktestCall = policyCall(
  startBacktestRoute,
  { params: policyParams, body: startBacktestBody },
  { 200: backtestResponse, 202: backtestResponse },
);
export const getBacktestCall = policyCall(getBacktestRoute, { params: backtestParams }, { 200: backtestResponse });
export const policyShadowCall = policyCall(policyShadowRoute, {}, { 200: policyShadowResponse });
export const setPolicyShadowCall = policyCall(
  setPolicyShadowRoute,
  { body: setPolicyShadowBody },
  { 200: policyShadowResponse },
);
