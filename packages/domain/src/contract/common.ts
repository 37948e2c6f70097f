import { z } from 'zod';
import { APPLICATION_STATUSES, NEXT_STEPS } from '../application.js';
import { PHONE_INVALID_MESSAGE } from '../phone.js';

/** The national number as the app sends it: 10 digits (the API checks the country plan in `parsePhone`). */
export const phoneNumberSchema = z
  .string()
  .trim()
  .regex(/^\d{10}$/, PHONE_INVALID_MESSAGE);

/** The anonymous id the app derives from the phone (SPEC §3). */
export const anonymousIdSchema = z.string().max(64);

const INT32_MESSAGE = 'El número está fuera del rango permitido.';

/** An integer a PostgreSQL `integer` column can hold; anything bigger is a 400, not a database error. */
export function int32(min = -2_147_483_648, max = 2_147_483_647) {
  return z.number().int().min(min, INT32_MESSAGE).max(max, INT32_MESSAGE);
}

/** Route params of every `/v1/users/:id/:type/...` call. */
export const userParams = z.object({ id: z.uuid('Usuario inválido.'), type: z.enum(['SK']) });
export type UserParams = z.input<typeof userParams>;

/** Where an application stands: the step engine's step and status (SPEC §4). */
export const nextStepSchema = z.enum(NEXT_STEPS);
export const applicationStatusSchema = z.enum(APPLICATION_STATUSES);

/** What a saved step answers: where the application now stands, and the screen that shows it (SPEC §2.2). */
export const stepAnswerSchema = z.object({
  data: z.object({
    user_id: z.string(),
    next_step: nextStepSchema,
    status: applicationStatusSchema,
    path: z.string(),
  }),
});
/** The `data` of a step answer (also the `current` of a 409: where the application stands). */
export type StepAnswer = z.infer<typeof stepAnswerSchema>['data'];

/** A pre-approved amount in the country's currency. */
export const preApprovalSchema = z.object({ amount: z.number(), currency: z.string() });
export type PreApproval = z.infer<typeof preApprovalSchema>;

/** The bearer token a proof or a registration hands out. */
export const bearerAuthenticationSchema = z.object({
  access_type: z.literal('Bearer'),
  access_token: z.string(),
  expires_at: z.string(),
});
export type BearerAuthentication = z.infer<typeof bearerAuthenticationSchema>;
