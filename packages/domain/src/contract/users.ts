import { z } from 'zod';
import { anonymousIdSchema, phoneNumberSchema, preApprovalSchema } from './common.js';

export const userSchema = z.object({
  user_id: z.string(),
  id: z.string(),
  user_type: z.string(),
  next_step: z.string(),
  status: z.string(),
  request: z.object({ next_step: z.string(), status: z.string(), welcome_screen_number: z.number() }),
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
});
export const userDetailResponse = z.object({ data: userDetailSchema });
export type UserDetail = z.infer<typeof userDetailSchema>;
