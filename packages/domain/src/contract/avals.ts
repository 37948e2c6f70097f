import { z } from 'zod';
import { callsSharing, refusals } from './call.js';
import { phoneNumberSchema, stepAnswerSchema, userParams } from './common.js';
import { addressBody } from './registration.js';
import {
  avalInvitationRoute,
  changeAvalPhoneRoute,
  confirmAvalNipRoute,
  pollAvalConsentRoute,
  registerAvalRoute,
  restartAvalConsentRoute,
  sendAvalNipRoute,
  startAvalConsentRoute,
} from './routes/avals.js';

const avalType = z.enum(['PARTNER', 'COLLATERAL']);
const nip = z.string().regex(/^\d{4}$/, 'El NIP tiene 4 dígitos.');

/** A guarantor as the shopkeeper's screens (and the user detail) show them. */
export const avalSchema = z.object({
  id: z.string(),
  aval_type: avalType,
  name: z.string(),
  phone: z.string().nullable(),
  status: z.enum(['PENDING', 'CONSENTED', 'APPROVED', 'REFUSED']),
});
export type Aval = z.infer<typeof avalSchema>;

/**
 * POST /v1/users/:id/:type/avals (the mobile app's PARTNER_FORM / COLLATERAL_FORM) and
 * POST /ops/v1/users/:id/avals: names a guarantor. The tax id is what the bureau is asked under.
 */
export const registerAvalBody = z.object({
  aval_type: avalType,
  /** The full name; with `lastname`, the given names only. */
  name: z.string().trim().min(1).max(80),
  phone_number: phoneNumberSchema,
  tax_payer_id: z.string().max(20),
  /**
   * The surnames and the guarantor's home address: required where the bureau files people by
   * them (Círculo de Crédito, Mexico), stored when given elsewhere.
   */
  lastname: z.string().trim().max(60).optional(),
  maternal_lastname: z.string().trim().max(60).optional(),
  address: addressBody.omit({ neighborhood_typed: true }).optional(),
});
export type RegisterAvalPayload = z.input<typeof registerAvalBody>;
export const avalRegisteredResponse = z.object({
  data: stepAnswerSchema.shape.data.extend({ aval: avalSchema }),
});

/** POST /v1/users/:id/:type/aval/nip?to={phone}: the guarantor's PIN by SMS. */
export const avalNipQuery = z.object({ to: phoneNumberSchema });
export const avalNipSentResponse = z.object({
  data: z.object({
    collateralName: z.string(),
    shopkeeperName: z.string(),
    aval_type: avalType,
    expires_at: z.string(),
    resend_after_seconds: z.number(),
    default_nip: z.string().optional(),
  }),
});
export type AvalNipSent = z.infer<typeof avalNipSentResponse>['data'];

/** PUT /v1/users/:id/:type/aval/nip?to={phone} {nip}: the guarantor's consent. */
export const avalNipBody = z.object({ nip });
export type AvalNipPayload = z.input<typeof avalNipBody>;
export const avalConsentResponse = z.object({
  data: stepAnswerSchema.shape.data.extend({ aval: avalSchema }),
});
export type AvalConsentAnswer = z.infer<typeof avalConsentResponse>['data'];

/** PUT /v1/users/:id/:type/aval/phone-number: another number for the guarantor; the PIN goes there. */
export const avalPhoneChangeBody = z.object({
  aval_type: avalType,
  phone_number: phoneNumberSchema,
  /** The country's prefix and the 10-digit number, e.g. +18095551234 or +525512345678. */
  new_phone_number: z.string().trim().max(20),
});
export type AvalPhoneChangePayload = z.input<typeof avalPhoneChangeBody>;
export const avalPhoneChangedResponse = avalNipSentResponse;

/** GET /v1/users/aval/invitation (the invitation token): who is asked, by whom. */
export const avalInvitationResponse = z.object({
  data: z.object({
    user_id: z.string(),
    user_type_id: z.literal('SK'),
    collateral_id: z.string(),
    aval_type: avalType,
    collateralName: z.string(),
    shopkeeperName: z.string(),
    phone_number: z.string(),
    status: avalSchema.shape.status,
  }),
});
export type AvalInvitation = z.infer<typeof avalInvitationResponse>['data'];

/** POST /v1/users/aval/consent (the invitation token): remote consent by a message from the guarantor's phone. */
export const avalConsentBody = z.object({
  account_type_id: z.enum(['SK']),
  account_id: z.uuid(),
  collateral_id: z.uuid(),
  ip_address: z.string().max(64).optional(),
});
export type AvalConsentPayload = z.input<typeof avalConsentBody>;
export const avalConsentStartedResponse = z.object({
  data: z.object({
    redirection_url: z.string(),
    session_id: z.string(),
    message: z.string(),
    destination: z.string(),
    whatsapp_url: z.string(),
    sms_url: z.string(),
    expires_at: z.string(),
  }),
});
export type AvalConsentStarted = z.infer<typeof avalConsentStartedResponse>['data'];

/** PUT /v1/users/aval/reverse-otp {session_id}: where the remote consent stands (SPEC §4 validationResult). */
export const avalReverseOtpBody = z.object({ session_id: z.uuid() });
export const avalValidationResponse = z.object({
  data: z.object({ validation: z.enum(['pending', 'success', 'error']) }),
});
export type AvalValidation = z.infer<typeof avalValidationResponse>['data'];

const avalRefusals = refusals(400, 401, 403, 404, 409, 422, 429);
/** The shopkeeper's calls about their guarantor: the application's params. */
const shopkeeperCall = callsSharing({ params: userParams }, avalRefusals);
/** The guarantor's own calls: the invitation token says whose application. */
const guarantorCall = callsSharing({}, avalRefusals);

export const registerAvalCall = shopkeeperCall(
  registerAvalRoute,
  { body: registerAvalBody },
  { 200: avalRegisteredResponse },
);
export const sendAvalNipCall = shopkeeperCall(sendAvalNipRoute, { query: avalNipQuery }, { 200: avalNipSentResponse });
export const confirmAvalNipCall = shopkeeperCall(
  confirmAvalNipRoute,
  { query: avalNipQuery, body: avalNipBody },
  { 200: avalConsentResponse },
);
export const changeAvalPhoneCall = shopkeeperCall(
  changeAvalPhoneRoute,
  { body: avalPhoneChangeBody },
  { 200: avalPhoneChangedResponse },
);

export const avalInvitationCall = guarantorCall(avalInvitationRoute, {}, { 200: avalInvitationResponse });
export const startAvalConsentCall = guarantorCall(
  startAvalConsentRoute,
  { body: avalConsentBody },
  { 200: avalConsentStartedResponse },
);
/** Another message for the same consent: what the first one asks, again. */
export const restartAvalConsentCall = guarantorCall(
  restartAvalConsentRoute,
  { body: avalConsentBody },
  { 200: avalConsentStartedResponse },
);
export const pollAvalConsentCall = guarantorCall(
  pollAvalConsentRoute,
  { body: avalReverseOtpBody },
  { 200: avalValidationResponse },
);
