import { loadOnce } from '../../../shared/hooks/use-api-data.js';
import { apiRequest } from '../../../shared/lib/api-client.js';

export interface StepAnswer {
  /** `path`: where SPEC §2.2 routes this state (the server computes it). */
  data: { user_id: string; next_step: string; status: string; path?: string };
}

/** The consent text changes only with a release: one fetch per page (the business screen warms it). */
export const consentText = (options: { spinner?: boolean } = {}) =>
  loadOnce('/api/v1/consents/text', () => apiRequest<{ data: { version: string; text: string; sha256: string } }>('GET', '/api/v1/consents/text', options)).then((r) => r.data);

export const sendNip = (userId: string) =>
  apiRequest<{ data: { expires_at: string; resend_after_seconds: number; default_nip?: string } }>('POST', `/api/v1/users/${userId}/SK/nip`).then((r) => r.data);

export const confirmNip = (userId: string, nip: string, consentSha256: string | undefined) =>
  apiRequest<StepAnswer>('PUT', `/api/v1/users/${userId}/SK/nip`, { body: { nip, ...(consentSha256 ? { consent_sha256: consentSha256 } : {}) } });

export const savePassword = (userId: string, password: string, confirmation: string) =>
  apiRequest<StepAnswer>('PUT', `/api/v1/users/${userId}/SK/password`, { body: { password, password_confirmation: confirmation } });

/** An approval goes to the pre-approval screen first; anything else follows SPEC §2.2. */
export function isApproval(user: { next_step?: string | null; status?: string | null }): boolean {
  return user.next_step === 'PASSWORD' && user.status === 'IN_PROGRESS';
}
