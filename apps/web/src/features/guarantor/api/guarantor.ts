import {
  FALLBACK_IP,
  avalInvitationRoute,
  changeAvalPhoneRoute,
  confirmAvalNipRoute,
  consentTextRoute,
  pollAvalConsentRoute,
  sendAvalNipRoute,
  startAvalConsentRoute,
} from '@provee/domain';
import type {
  AvalConsentPayload,
  AvalConsentStarted,
  AvalInvitation,
  AvalNipSent,
  AvalPhoneChangePayload,
  UserParams,
} from '@provee/domain';
import { loadOnce } from '../../../shared/hooks/use-api-data.js';
import { apiRequest, urlOf } from '../../../shared/lib/api-request.js';

export type { AvalConsentStarted, AvalInvitation, AvalNipSent };

/** The shopkeeper whose guarantor answers (route or query of SPEC §2.5). */
export interface AvalOwner {
  userId: string;
  userTypeId: string;
}

/**
 * The invitation token of a guarantor's link, as the Bearer of the call; without one the call
 * carries the shopkeeper's stored session token (api-client).
 */
const authorizedBy = (token: string | null | undefined) =>
  token ? { headers: { authorization: `Bearer ${token}` } } : {};

/** The shopkeeper in the path of the call (the server refuses a user type it does not know). */
const ownerParams = (owner: AvalOwner) => ({
  params: { id: owner.userId, type: owner.userTypeId as UserParams['type'] },
});

/** POST …/aval/nip?to={phone}: the guarantor's 4-digit PIN by SMS. */
export const sendAvalNip = (owner: AvalOwner, phone: string, token?: string | null) =>
  apiRequest(sendAvalNipRoute, { ...ownerParams(owner), query: { to: phone }, ...authorizedBy(token) }).then(
    (r) => r.data,
  );

/** PUT …/aval/nip?to={phone} {nip}: the PIN is the guarantor's consent. */
export const confirmAvalNip = (owner: AvalOwner, phone: string, nip: string, token?: string | null) =>
  apiRequest(confirmAvalNipRoute, {
    ...ownerParams(owner),
    query: { to: phone },
    ...authorizedBy(token),
    body: { nip },
  }).then((r) => r.data);

/** PUT …/aval/phone-number: another number for the guarantor; the new PIN goes there. */
export const changeAvalPhone = (owner: AvalOwner, payload: AvalPhoneChangePayload, token?: string | null) =>
  apiRequest(changeAvalPhoneRoute, { ...ownerParams(owner), ...authorizedBy(token), body: payload }).then(
    (r) => r.data,
  );

/** GET /v1/users/aval/invitation: who is asked, by whom (the invitation token). */
export const getAvalInvitation = (token: string | null) =>
  apiRequest(avalInvitationRoute, authorizedBy(token)).then((r) => r.data);

/** POST /v1/users/aval/consent: the remote consent starts (a message from the guarantor's phone). */
export const startAvalConsent = (token: string | null, payload: AvalConsentPayload) =>
  apiRequest(startAvalConsentRoute, { ...authorizedBy(token), body: payload }).then((r) => r.data);

/** PUT /v1/users/aval/reverse-otp: where the remote consent stands (no token; the session id is the secret). */
export const pollAvalValidation = (sessionId: string) =>
  apiRequest(pollAvalConsentRoute, { body: { session_id: sessionId }, spinner: false }).then((r) => r.data.validation);

/** The guarantor's consent text, which the server records with their PIN or message: one fetch per page. */
const collateralText = { query: { person_type: 'collateral' as const }, spinner: false };
export const consentText = () =>
  loadOnce(urlOf(consentTextRoute, collateralText), () => apiRequest(consentTextRoute, collateralText)).then(
    (r) => r.data,
  );

/** SPEC §7: the client's public IP, as the configured lookup sees it; '{ip}' when it cannot tell. */
export async function lookupPublicIp(url: string): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as { ip?: unknown };
    return typeof body.ip === 'string' && body.ip ? body.ip : FALLBACK_IP;
  } catch {
    return FALLBACK_IP;
  }
}
