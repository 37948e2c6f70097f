import { z } from 'zod';
import { defineCall, refusals } from './call.js';
import { anonymousIdSchema, bearerAuthenticationSchema, phoneNumberSchema } from './common.js';
import { confirmCodeRoute, pollReverseOtpRoute, sendCodeRoute, startReverseOtpRoute } from './routes/phone-proof.js';
import { userSchema } from './users.js';

/** POST /v1/users/code */
export const sendCodeBody = z.object({ phone_number: phoneNumberSchema, anonymous_id: anonymousIdSchema.optional() });
export type SendCodeBody = z.input<typeof sendCodeBody>;
export const codeSentResponse = z.object({
  data: z.object({ expires_at: z.string(), resend_after_seconds: z.number() }),
});
export type CodeSent = z.infer<typeof codeSentResponse>;

/** PUT /v1/users/code */
export const confirmCodeBody = z.object({
  phone_number: phoneNumberSchema,
  code: z.string().regex(/^\d{6}$/, 'El código tiene 6 dígitos.'),
  anonymous_id: anonymousIdSchema.optional(),
});
export type ConfirmCodeBody = z.input<typeof confirmCodeBody>;

/**
 * 200 of PUT /v1/users/code and of a verified PUT /v1/users/reverse-otp. `user`: what GET /v1/users
 * answers for this phone, null when it is new (that call's 404), so the app knows where to go
 * without asking again (one round trip a step on 3G).
 */
export const phoneAuthenticationResponse = z.object({
  data: z.object({ authentication: bearerAuthenticationSchema, phone_number: z.string(), user: userSchema.nullable() }),
});
export type PhoneAuthentication = z.infer<typeof phoneAuthenticationResponse>;

export const reverseOtpSessionSchema = z.object({
  session_id: z.uuid(),
  message: z.string(),
  destination: z.string(),
  whatsapp_url: z.string(),
  sms_url: z.string(),
  expires_at: z.string(),
});
export type ReverseOtpSession = z.infer<typeof reverseOtpSessionSchema>;

/** POST /v1/users/reverse-otp */
export const startReverseOtpBody = z.object({
  phone_number: phoneNumberSchema,
  anonymous_id: anonymousIdSchema.optional(),
  ip_address: z.string().max(64).optional(),
});
export type StartReverseOtpBody = z.input<typeof startReverseOtpBody>;
export const reverseOtpStartedResponse = z.object({ data: reverseOtpSessionSchema });
export type ReverseOtpStarted = z.infer<typeof reverseOtpStartedResponse>;

/** PUT /v1/users/reverse-otp: 200 phoneAuthenticationResponse, 202 pending. */
export const pollReverseOtpBody = z.object({ session_id: z.uuid('La verificación no es válida.') });
export type PollReverseOtpBody = z.input<typeof pollReverseOtpBody>;
export const reverseOtpPendingResponse = z.object({
  data: reverseOtpSessionSchema.extend({ status: z.literal('PENDING') }),
});
export type ReverseOtpPending = z.infer<typeof reverseOtpPendingResponse>;

export const sendCodeCall = defineCall(sendCodeRoute, {
  body: sendCodeBody,
  responses: { 200: codeSentResponse, ...refusals(429) },
});

export const confirmCodeCall = defineCall(confirmCodeRoute, {
  body: confirmCodeBody,
  responses: { 200: phoneAuthenticationResponse, ...refusals(400, 429) },
});

export const startReverseOtpCall = defineCall(startReverseOtpRoute, {
  body: startReverseOtpBody,
  responses: { 200: reverseOtpStartedResponse, ...refusals(429) },
});

/** 202 while the message has not arrived, 200 once verified; 401 another number, 410 expired. */
export const pollReverseOtpCall = defineCall(pollReverseOtpRoute, {
  body: pollReverseOtpBody,
  responses: { 200: phoneAuthenticationResponse, 202: reverseOtpPendingResponse, ...refusals(401, 404, 410) },
});
