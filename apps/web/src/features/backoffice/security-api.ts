import type {
  PasskeyLoginBody,
  StaffCreateBody,
  StaffFactorBody,
  StaffLoginBody,
  StaffUpdateBody,
} from '@provee/domain';
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
} from '@provee/domain';
import { backofficeRequest } from './api.js';

// Who may enter the back office and how: the login and its second factor, one's own factors,
// the password links, and the admins' staff accounts.

type Json = Record<string, unknown>;
/** The credential the browser answered (the server checks every part). */
type Credential = PasskeyLoginBody['credential'];

/** A wrong password or code is the screen's message, never a trip to the login (api.ts). */
export const session = {
  loginOptions: () => backofficeRequest(staffLoginOptionsRoute).then((r) => r.data),
  login: (body: StaffLoginBody) =>
    backofficeRequest(staffLoginRoute, { body, redirectOn401: false }).then((r) => r.data),
  current: () => backofficeRequest(staffSessionRoute).then((r) => r.data),
  logout: () => backofficeRequest(staffLogoutRoute, { redirectOn401: false }),
  factor: (body: StaffFactorBody) => backofficeRequest(staffGiveFactorRoute, { body }).then((r) => r.data),
  passkeyOptions: () => backofficeRequest(staffPasskeyLoginOptionsRoute).then((r) => r.data.options),
  passkey: (credential: Json) =>
    backofficeRequest(staffPasskeyLoginRoute, { body: { credential: credential as Credential } }).then((r) => r.data),
};

/** The signed-in person's own second factors. */
export const myFactors = {
  list: () => backofficeRequest(ownFactorsRoute).then((r) => r.data),
  startTotp: () => backofficeRequest(startTotpRoute).then((r) => r.data),
  confirmTotp: (code: string) => backofficeRequest(confirmTotpRoute, { body: { code } }).then((r) => r.data),
  passkeyOptions: () => backofficeRequest(passkeyRegistrationOptionsRoute).then((r) => r.data.options),
  addPasskey: (credential: Json, name?: string) =>
    backofficeRequest(registerPasskeyRoute, {
      body: { credential: credential as Credential, ...(name ? { name } : {}) },
    }).then((r) => r.data),
  removePasskey: (id: string) => backofficeRequest(removePasskeyRoute, { params: { passkeyId: id } }),
  newRecoveryCodes: () => backofficeRequest(renewRecoveryCodesRoute).then((r) => r.data.recovery_codes),
};

/** The page a password link opens (no session): whose link it is, then the new password. */
export const passwordLinks = {
  owner: (token: string) => backofficeRequest(passwordLinkOwnerRoute, { body: { token } }).then((r) => r.data),
  setPassword: (token: string, password: string) =>
    backofficeRequest(setPasswordWithLinkRoute, { body: { token, password } }),
};

const account = (id: string) => ({ params: { staffId: id } });

export const staffAccounts = {
  list: () => backofficeRequest(listStaffRoute).then((r) => r.data),
  create: (body: StaffCreateBody) => backofficeRequest(createStaffRoute, { body }).then((r) => r.data),
  update: (id: string, body: StaffUpdateBody) =>
    backofficeRequest(updateStaffRoute, { ...account(id), body }).then((r) => r.data),
  passwordLink: (id: string) => backofficeRequest(issuePasswordLinkRoute, account(id)).then((r) => r.data),
  resetFactors: (id: string) => backofficeRequest(resetStaffFactorsRoute, account(id)).then((r) => r.data),
};
