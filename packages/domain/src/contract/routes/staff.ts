import { route } from './route.js';

// Where the back office's staff calls go: login and session, one's own second factors, password
// links and staff accounts (zod-free, one value per call).
const base = '/api/backoffice';

export const staffLoginOptionsRoute = route('GET', `${base}/login-options`);
export const staffLoginRoute = route('POST', `${base}/session`);
export const staffSessionRoute = route('GET', `${base}/session`);
export const staffLogoutRoute = route('DELETE', `${base}/session`);
export const staffGiveFactorRoute = route('POST', `${base}/session/factor`);
export const staffPasskeyLoginOptionsRoute = route('POST', `${base}/session/passkey/options`);
export const staffPasskeyLoginRoute = route('POST', `${base}/session/passkey`);

export const ownFactorsRoute = route('GET', `${base}/me/factors`);
export const startTotpRoute = route('POST', `${base}/me/totp`);
export const confirmTotpRoute = route('POST', `${base}/me/totp/confirm`);
export const passkeyRegistrationOptionsRoute = route('POST', `${base}/me/passkeys/options`);
export const registerPasskeyRoute = route('POST', `${base}/me/passkeys`);
export const removePasskeyRoute = route('DELETE', `${base}/me/passkeys/:passkeyId`);
export const renewRecoveryCodesRoute = route('POST', `${base}/me/recovery-codes`);

export const passwordLinkOwnerRoute = route('POST', `${base}/password-link`);
export const setPasswordWithLinkRoute = route('POST', `${base}/password-link/password`);

export const listStaffRoute = route('GET', `${base}/staff`);
export const createStaffRoute = route('POST', `${base}/staff`);
export const updateStaffRoute = route('PATCH', `${base}/staff/:staffId`);
export const issuePasswordLinkRoute = route('POST', `${base}/staff/:staffId/password-link`);
export const resetStaffFactorsRoute = route('POST', `${base}/staff/:staffId/reset-factors`);
