import type {
  ConfirmNipAnswer,
  ConfirmNipPayload,
  ConsentText,
  NipSent,
  PasswordPayload,
  StepAnswer,
} from '@provee/domain';
import { loadOnce } from '../../../shared/hooks/use-api-data.js';
import { apiRequest } from '../../../shared/lib/api-client.js';

export type { StepAnswer };

/** The consent text changes only with a release: one fetch per page (the business screen warms it). */
export const consentText = (options: { spinner?: boolean } = {}) =>
  loadOnce('/api/v1/consents/text', () =>
    apiRequest<{ data: ConsentText }>('GET', '/api/v1/consents/text', options),
  ).then((r) => r.data);

export const sendNip = (userId: string) =>
  apiRequest<{ data: NipSent }>('POST', `/api/v1/users/${userId}/SK/nip`).then((r) => r.data);

export const confirmNip = (userId: string, nip: string, consentSha256: string | undefined) =>
  apiRequest<ConfirmNipAnswer>('PUT', `/api/v1/users/${userId}/SK/nip`, {
    body: { nip, ...(consentSha256 ? { consent_sha256: consentSha256 } : {}) } satisfies ConfirmNipPayload,
  });

export const savePassword = (userId: string, password: string, confirmation: string) =>
  apiRequest<StepAnswer>('PUT', `/api/v1/users/${userId}/SK/password`, {
    body: { password, password_confirmation: confirmation } satisfies PasswordPayload,
  });

/** An approval goes to the pre-approval screen first; anything else follows SPEC §2.2. */
export function isApproval(user: { next_step?: string | null; status?: string | null }): boolean {
  return user.next_step === 'PASSWORD' && user.status === 'IN_PROGRESS';
}
