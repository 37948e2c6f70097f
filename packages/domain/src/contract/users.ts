import { z } from 'zod';
import { defineCall, refusals } from './call.js';
import {
  anonymousIdSchema,
  applicationStatusSchema,
  nextStepSchema,
  phoneNumberSchema,
  preApprovalSchema,
  userParams,
} from './common.js';
import { lookupUserRoute, userDetailRoute } from './routes/users.js';

export const userSchema = z.object({
  user_id: z.string(),
  id: z.string(),
  user_type: z.string(),
  next_step: nextStepSchema,
  status: applicationStatusSchema,
  request: z.object({ next_step: nextStepSchema, status: applicationStatusSchema, welcome_screen_number: z.number() }),
  avals: z.array(z.object({ aval_type: z.enum(['PARTNER', 'COLLATERAL']), phone: z.string().nullable() })),
  phone_number: z.string(),
});

/** GET /v1/users (404 when the phone is new) */
export const lookupUserQuery = z.object({
  phone_number: phoneNumberSchema,
  anonymous_id: anonymousIdSchema.optional(),
});
export type LookupUserQuery = z.input<typeof lookupUserQuery>;
export const lookupUserResponse = z.object({ data: userSchema });
export type FoundUser = z.infer<typeof userSchema>;

/** GET /v1/users/:id/:type (params: userParams) */
export const userDetailSchema = userSchema.extend({
  tax_id_suggestion: z.string().nullable(),
  pre_approval: preApprovalSchema.nullable(),
  /** The lender's approval after PENDING_APPROVAL (issue 30): the final amount and terms. */
  lender_approval: z
    .object({
      amount: z.number(),
      currency: z.string(),
      term_months: z.number(),
      annual_rate: z.number(),
      decided_at: z.string(),
    })
    .nullable(),
});
export const userDetailResponse = z.object({ data: userDetailSchema });
export type UserDetail = z.infer<typeof userDetailSchema>;

export const lookupUserCall = defineCall(lookupUserRoute, {
  query: lookupUserQuery,
  responses: { 200: lookupUserResponse, ...refusals(401, 403, 404) },
});

export const userDetailCall = defineCall(userDetailRoute, {
  params: userParams,
  responses: { 200: userDetailResponse, ...refusals(401, 403) },
});
