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
import { defineCall, refusals } from './call.js';
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

/** The staff calls' schemas live in backoffice.ts; these are the calls (login, factors, links, accounts). */
const staffRefusals = refusals(400, 401, 403, 404, 409, 429);
const noContent = { 204: z.null() };

// ---- login and session -------------------------------------------------------------------------
export const staffLoginOptionsCall = defineCall(staffLoginOptionsRoute, {
  responses: { 200: staffLoginOptionsResponse },
});
export const staffLoginCall = defineCall(staffLoginRoute, {
  body: staffLoginBody,
  responses: { 200: staffSessionResponse, ...staffRefusals },
});
export const staffSessionCall = defineCall(staffSessionRoute, {
  responses: { 200: staffSessionResponse, ...staffRefusals },
});
export const staffLogoutCall = defineCall(staffLogoutRoute, { responses: { ...noContent, ...staffRefusals } });
export const staffGiveFactorCall = defineCall(staffGiveFactorRoute, {
  body: staffFactorBody,
  responses: { 200: staffSessionResponse, ...staffRefusals },
});
export const staffPasskeyLoginOptionsCall = defineCall(staffPasskeyLoginOptionsRoute, {
  responses: { 200: passkeyOptionsResponse, ...staffRefusals },
});
export const staffPasskeyLoginCall = defineCall(staffPasskeyLoginRoute, {
  body: passkeyLoginBody,
  responses: { 200: staffSessionResponse, ...staffRefusals },
});

// ---- one's own second factors ------------------------------------------------------------------
export const ownFactorsCall = defineCall(ownFactorsRoute, {
  responses: { 200: staffFactorsResponse, ...staffRefusals },
});
export const startTotpCall = defineCall(startTotpRoute, {
  responses: { 200: totpEnrolmentResponse, ...staffRefusals },
});
export const confirmTotpCall = defineCall(confirmTotpRoute, {
  body: totpConfirmBody,
  responses: { 200: factorEnrolledResponse, ...staffRefusals },
});
export const passkeyRegistrationOptionsCall = defineCall(passkeyRegistrationOptionsRoute, {
  responses: { 200: passkeyOptionsResponse, ...staffRefusals },
});
export const registerPasskeyCall = defineCall(registerPasskeyRoute, {
  body: passkeyRegisterBody,
  responses: { 200: factorEnrolledResponse, ...staffRefusals },
});
export const removePasskeyCall = defineCall(removePasskeyRoute, {
  params: passkeyParams,
  responses: { ...noContent, ...staffRefusals },
});
export const renewRecoveryCodesCall = defineCall(renewRecoveryCodesRoute, {
  responses: { 200: recoveryCodesResponse, ...staffRefusals },
});

// ---- password links (no session) ---------------------------------------------------------------
export const passwordLinkOwnerCall = defineCall(passwordLinkOwnerRoute, {
  body: passwordLinkBody,
  responses: { 200: passwordLinkInfoResponse, ...staffRefusals },
});
export const setPasswordWithLinkCall = defineCall(setPasswordWithLinkRoute, {
  body: passwordSetBody,
  responses: { ...noContent, ...staffRefusals },
});

// ---- staff accounts (admins) -------------------------------------------------------------------
export const listStaffCall = defineCall(listStaffRoute, { responses: { 200: staffListResponse, ...staffRefusals } });
export const createStaffCall = defineCall(createStaffRoute, {
  body: staffCreateBody,
  responses: { 201: staffCreatedResponse, ...staffRefusals },
});
export const updateStaffCall = defineCall(updateStaffRoute, {
  params: staffParams,
  body: staffUpdateBody,
  responses: { 200: staffResponse, ...staffRefusals },
});
export const issuePasswordLinkCall = defineCall(issuePasswordLinkRoute, {
  params: staffParams,
  responses: { 200: passwordLinkResponse, ...staffRefusals },
});
export const resetStaffFactorsCall = defineCall(resetStaffFactorsRoute, {
  params: staffParams,
  responses: { 200: staffResponse, ...staffRefusals },
});
