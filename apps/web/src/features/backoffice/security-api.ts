import type {
  FactorEnrolledResponse,
  PasskeyOptionsResponse,
  PasswordLinkInfoResponse,
  PasswordLinkResponse,
  RecoveryCodesResponse,
  StaffCreateBody,
  StaffCreatedResponse,
  StaffFactorBody,
  StaffFactorsResponse,
  StaffListResponse,
  StaffLoginBody,
  StaffLoginOptionsResponse,
  StaffSessionResponse,
  StaffUpdateBody,
  StaffView,
  TotpEnrolmentResponse,
} from '@provee/domain';
import { request } from './api.js';

// Who may enter the back office and how: the login and its second factor, one's own factors,
// the password links, and the admins' staff accounts.

type Json = Record<string, unknown>;
const options = (path: string) =>
  request<PasskeyOptionsResponse>('POST', path, { body: {} }).then((r) => r.data.options);

/** A wrong password or code is the screen's message, never a trip to the login (api.ts). */
export const session = {
  loginOptions: () => request<StaffLoginOptionsResponse>('GET', '/login-options').then((r) => r.data),
  login: (body: StaffLoginBody) =>
    request<StaffSessionResponse>('POST', '/session', { body, redirectOn401: false }).then((r) => r.data),
  current: () => request<StaffSessionResponse>('GET', '/session').then((r) => r.data),
  logout: () => request<void>('DELETE', '/session', { redirectOn401: false }),
  factor: (body: StaffFactorBody) =>
    request<StaffSessionResponse>('POST', '/session/factor', { body }).then((r) => r.data),
  passkeyOptions: () => options('/session/passkey/options'),
  passkey: (credential: Json) =>
    request<StaffSessionResponse>('POST', '/session/passkey', { body: { credential } }).then((r) => r.data),
};

/** The signed-in person's own second factors. */
export const myFactors = {
  list: () => request<StaffFactorsResponse>('GET', '/me/factors').then((r) => r.data),
  startTotp: () => request<TotpEnrolmentResponse>('POST', '/me/totp', { body: {} }).then((r) => r.data),
  confirmTotp: (code: string) =>
    request<FactorEnrolledResponse>('POST', '/me/totp/confirm', { body: { code } }).then((r) => r.data),
  passkeyOptions: () => options('/me/passkeys/options'),
  addPasskey: (credential: Json, name?: string) =>
    request<FactorEnrolledResponse>('POST', '/me/passkeys', { body: { credential, ...(name ? { name } : {}) } }).then(
      (r) => r.data,
    ),
  removePasskey: (id: string) => request<void>('DELETE', `/me/passkeys/${encodeURIComponent(id)}`),
  newRecoveryCodes: () =>
    request<RecoveryCodesResponse>('POST', '/me/recovery-codes', { body: {} }).then((r) => r.data.recovery_codes),
};

/** The page a password link opens (no session): whose link it is, then the new password. */
export const passwordLinks = {
  owner: (token: string) =>
    request<PasswordLinkInfoResponse>('POST', '/password-link', { body: { token } }).then((r) => r.data),
  setPassword: (token: string, password: string) =>
    request<void>('POST', '/password-link/password', { body: { token, password } }),
};

const account = (id: string, rest = '') => `/staff/${encodeURIComponent(id)}${rest}`;

export const staffAccounts = {
  list: () => request<StaffListResponse>('GET', '/staff').then((r) => r.data),
  create: (body: StaffCreateBody) => request<StaffCreatedResponse>('POST', '/staff', { body }).then((r) => r.data),
  update: (id: string, body: StaffUpdateBody) =>
    request<{ data: StaffView }>('PATCH', account(id), { body }).then((r) => r.data),
  passwordLink: (id: string) =>
    request<PasswordLinkResponse>('POST', account(id, '/password-link'), { body: {} }).then((r) => r.data),
  resetFactors: (id: string) =>
    request<{ data: StaffView }>('POST', account(id, '/reset-factors'), { body: {} }).then((r) => r.data),
};
