import { FALLBACK_IP } from '@provee/domain';
import type {
  AvalConsentAnswer,
  AvalConsentPayload,
  AvalConsentStarted,
  AvalInvitation,
  AvalNipPayload,
  AvalNipSent,
  AvalPhoneChangePayload,
  AvalValidation,
  ConsentText,
} from '@provee/domain';
import { loadOnce } from '../../../shared/hooks/use-api-data.js';
import { apiRequest } from '../../../shared/lib/api-client.js';

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

const avalPath = (owner: AvalOwner, rest: string) =>
  `/api/v1/users/${encodeURIComponent(owner.userId)}/${encodeURIComponent(owner.userTypeId)}/aval/${rest}`;

/** POST …/aval/nip?to={phone}: the guarantor's 4-digit PIN by SMS. */
export const sendAvalNip = (owner: AvalOwner, phone: string, token?: string | null) =>
  apiRequest<{ data: AvalNipSent }>('POST', avalPath(owner, `nip?to=${encodeURIComponent(phone)}`), {
    ...authorizedBy(token),
  }).then((r) => r.data);

/** PUT …/aval/nip?to={phone} {nip}: the PIN is the guarantor's consent. */
export const confirmAvalNip = (owner: AvalOwner, phone: string, nip: string, token?: string | null) =>
  apiRequest<{ data: AvalConsentAnswer }>('PUT', avalPath(owner, `nip?to=${encodeURIComponent(phone)}`), {
    ...authorizedBy(token),
    body: { nip } satisfies AvalNipPayload,
  }).then((r) => r.data);

/** PUT …/aval/phone-number: another number for the guarantor; the new PIN goes there. */
export const changeAvalPhone = (owner: AvalOwner, payload: AvalPhoneChangePayload, token?: string | null) =>
  apiRequest<{ data: AvalNipSent }>('PUT', avalPath(owner, 'phone-number'), {
    ...authorizedBy(token),
    body: payload,
  }).then((r) => r.data);

/** GET /v1/users/aval/invitation: who is asked, by whom (the invitation token). */
export const getAvalInvitation = (token: string | null) =>
  apiRequest<{ data: AvalInvitation }>('GET', '/api/v1/users/aval/invitation', authorizedBy(token)).then((r) => r.data);

/** POST /v1/users/aval/consent: the remote consent starts (a message from the guarantor's phone). */
export const startAvalConsent = (token: string | null, payload: AvalConsentPayload) =>
  apiRequest<{ data: AvalConsentStarted }>('POST', '/api/v1/users/aval/consent', {
    ...authorizedBy(token),
    body: payload,
  }).then((r) => r.data);

/** PUT /v1/users/aval/reverse-otp: where the remote consent stands (no token; the session id is the secret). */
export const pollAvalValidation = (sessionId: string) =>
  apiRequest<{ data: AvalValidation }>('PUT', '/api/v1/users/aval/reverse-otp', {
    body: { session_id: sessionId },
    spinner: false,
  }).then((r) => r.data.validation);

/** The guarantor's consent text, which the server records with their PIN or message: one fetch per page. */
const CONSENT_TEXT_URL = '/api/v1/consents/text?person_type=collateral';
export const consentText = () =>
  loadOnce(CONSENT_TEXT_URL, () => apiRequest<{ data: ConsentText }>('GET', CONSENT_TEXT_URL, { spinner: false })).then(
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
