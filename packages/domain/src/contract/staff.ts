import { z } from 'zod';
import {
  factorEnrolledResponse,
  passkeyLoginBody,
  passkeyOptionsResponse,
  passkeyParams,
  passkeyRegisterBody,
  passwordLinkBody,
  passwordLinkInfoResponse,
  passwordLinkResponse,
  passwordSetBody,
  recoveryCodesResponse,
  staffCreateBody,
  staffCreatedResponse,
  staffFactorBody,
  staffFactorsResponse,
  staffListResponse,
  staffLoginBody,
  staffLoginOptionsResponse,
  staffParams,
  staffResponse,
  staffSessionResponse,
  staffUpdateBody,
  totpConfirmBody,
  totpEnrolmentResponse,
} from './backoffice.js';
import { callsSharing, defineCall, refusals } from './call.js';
import {
  confirmTotpRoute,
  createStaffRoute,
  issuePasswordLinkRoute,
  listStaffRoute,
  ownFactorsRoute,
  passkeyRegistrationOptionsRoute,
  passwordLinkOwnerRoute,
  registerPasskeyRoute,
  removePasskeyRoute,
  renewRecoveryCodesRoute,
  resetStaffFactorsRoute,
  setPasswordWithLinkRoute,
  staffGiveFactorRoute,
  staffLoginOptionsRoute,
  staffLoginRoute,
  staffLogoutRoute,
  staffPasskeyLoginOptionsRoute,
  staffPasskeyLoginRoute,
  staffSessionRoute,
  startTotpRoute,
  updateStaffRoute,
} from './routes/staff.js';

/**
 * The staff calls' schemas live in backoffice.ts; these are the calls (login, factors, links, accounts), each
 * documenting the same refusals.
 */
const staffCall = callsSharing({}, refusals(400, 401, 403, 404, 409, 429));
const noContent = { 204: z.null() };

// ---- login and session -------------------------------------------------------------------------
export const staffLoginOptionsCall = defineCall(staffLoginOptionsRoute, {
  responses: { 200: staffLoginOptionsResponse },
});
export const staffLoginCall = staffCall(staffLoginRoute, { body: staffLoginBody }, { 200: staffSessionResponse });
export const staffSessionCall = staffCall(staffSessionRoute, {}, { 200: staffSessionResponse });
export const staffLogoutCall = staffCall(staffLogoutRoute, {}, noContent);
export const staffGiveFactorCall = staffCall(
  staffGiveFactorRoute,
  { body: staffFactorBody },
  { 200: staffSessionResponse },
);
export const staffPasskeyLoginOptionsCall = staffCall(
  staffPasskeyLoginOptionsRoute,
  {},
  { 200: passkeyOptionsResponse },
);
export const staffPasskeyLoginCall = staffCall(
  staffPasskeyLoginRoute,
  { body: passkeyLoginBody },
  { 200: staffSessionResponse },
);

// ---- one's own second factors ------------------------------------------------------------------
export const ownFactorsCall = staffCall(ownFactorsRoute, {}, { 200: staffFactorsResponse });
export const startTotpCall = staffCall(startTotpRoute, {}, { 200: totpEnrolmentResponse });
export const confirmTotpCall = staffCall(confirmTotpRoute, { body: totpConfirmBody }, { 200: factorEnrolledResponse });
export const passkeyRegistrationOptionsCall = staffCall(
  passkeyRegistrationOptionsRoute,
  {},
  { 200: passkeyOptionsResponse },
);
export const registerPasskeyCall = staffCall(
  registerPasskeyRoute,
  { body: passkeyRegisterBody },
  { 200: factorEnrolledResponse },
);
export const removePasskeyCall = staffCall(removePasskeyRoute, { params: passkeyParams }, noContent);
export const renewRecoveryCodesCall = staffCall(renewRecoveryCodesRoute, {}, { 200: recoveryCodesResponse });

// ---- password links (no session) ---------------------------------------------------------------
export const passwordLinkOwnerCall = staffCall(
  passwordLinkOwnerRoute,
  { body: passwordLinkBody },
  { 200: passwordLinkInfoResponse },
);
export const setPasswordWithLinkCall = staffCall(setPasswordWithLinkRoute, { body: passwordSetBody }, noContent);

// ---- staff accounts (admins) -------------------------------------------------------------------
export const listStaffCall = staffCall(listStaffRoute, {}, { 200: staffListResponse });
export const createStaffCall = staffCall(createStaffRoute, { body: staffCreateBody }, { 201: staffCreatedResponse });
export const updateStaffCall = staffCall(
  updateStaffRoute,
  { params: staffParams, body: staffUpdateBody },
  { 200: staffResponse },
);
export const issuePasswordLinkCall = staffCall(
  issuePasswordLinkRoute,
  { params: staffParams },
  { 200: passwordLinkResponse },
);
export const resetStaffFactorsCall = staffCall(resetStaffFactorsRoute, { params: staffParams }, { 200: staffResponse });
