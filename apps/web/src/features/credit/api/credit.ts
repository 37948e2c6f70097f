import { confirmNipRoute, consentTextRoute, savePasswordRoute, sendNipRoute } from '@provee/domain';
import { loadOnce } from '../../../shared/hooks/use-api-data.js';
import { apiRequest, urlOf } from '../../../shared/lib/api-request.js';
import { shopkeeper } from '../../../shared/lib/users-api.js';

/** The consent text changes only with a release: one fetch per page (the business screen warms it). */
export const consentText = (options: { spinner?: boolean } = {}) =>
  loadOnce(urlOf(consentTextRoute), () => apiRequest(consentTextRoute, options)).then((r) => r.data);

export const sendNip = (userId: string) => apiRequest(sendNipRoute, shopkeeper(userId)).then((r) => r.data);

export const confirmNip = (userId: string, nip: string, consentSha256: string | undefined) =>
  apiRequest(confirmNipRoute, {
    ...shopkeeper(userId),
    body: { nip, ...(consentSha256 ? { consent_sha256: consentSha256 } : {}) },
  });

export const savePassword = (userId: string, password: string, confirmation: string) =>
  apiRequest(savePasswordRoute, { ...shopkeeper(userId), body: { password, password_confirmation: confirmation } });

/** An approval goes to the pre-approval screen first; anything else follows SPEC §2.2. */
export function isApproval(user: { next_step?: string | null; status?: string | null }): boolean {
  return user.next_step === 'PASSWORD' && user.status === 'IN_PROGRESS';
}
