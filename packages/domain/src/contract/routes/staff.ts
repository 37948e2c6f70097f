import type { Route } from '../call.js';

// Where the back office's staff calls go: login and session, one's own second factors, password
// links and staff accounts (zod-free, one value per call).
const base = '/api/backoffice';

export const staffLoginOptionsRoute = { method: 'GET', path: `${base}/login-options` } as const satisfies Route;
export const staffLoginRoute = { method: 'POST', path: `${base}/session` } as const satisfies Route;
export const staffSessionRoute = { method: 'GET', path: `${base}/session` } as const satisfies Route;
export const staffLogoutRoute = { method: 'DELETE', path: `${base}/session` } as const satisfies Route;
export const staffGiveFactorRoute = { method: 'POST', path: `${base}/session/factor` } as const satisfies Route;
export const staffPasskeyLoginOptionsRoute = {
  method: 'POST',
  path: `${base}/session/passkey/options`,
} as const satisfies Route;
export const staffPasskeyLoginRoute = { method: 'POST', path: `${base}/session/passkey` } as const satisfies Route;

export const ownFactorsRoute = { method: 'GET', path: `${base}/me/factors` } as const satisfies Route;
export const startTotpRoute = { method: 'POST', path: `${base}/me/totp` } as const satisfies Route;
export const confirmTotpRoute = { method: 'POST', path: `${base}/me/totp/confirm` } as const satisfies Route;
export const passkeyRegistrationOptionsRoute = {
  method: 'POST',
  path: `${base}/me/passkeys/options`,
} as const satisfies Route;
export const registerPasskeyRoute = { method: 'POST', path: `${base}/me/passkeys` } as const satisfies Route;
export const removePasskeyRoute = { method: 'DELETE', path: `${base}/me/passkeys/:passkeyId` } as const satisfies Route;
export const renewRecoveryCodesRoute = { method: 'POST', path: `${base}/me/recovery-codes` } as const satisfies Route;

export const passwordLinkOwnerRoute = { method: 'POST', path: `${base}/password-link` } as const satisfies Route;
export const setPasswordWithLinkRoute = {
  method: 'POST',
  path: `${base}/password-link/password`,
} as const satisfies Route;

export const listStaffRoute = { method: 'GET', path: `${base}/staff` } as const satisfies Route;
export const createStaffRoute = { method: 'POST', path: `${base}/staff` } as const satisfies Route;
export const updateStaffRoute = { method: 'PATCH', path: `${base}/staff/:staffId` } as const satisfies Route;
export const issuePasswordLinkRoute = {
  method: 'POST',
  path: `${base}/staff/:staffId/password-link`,
} as const satisfies Route;
export const resetStaffFactorsRoute = {
  method: 'POST',
  path: `${base}/staff/:staffId/reset-factors`,
} as const satisfies Route;
