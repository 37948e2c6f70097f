import type {
  IdentityDocumentKind,
  IdentityDocumentsAnswer,
  SignContractAnswer,
  SignContractPayload,
  SigningLink,
  VerificationStatusAnswer,
  VerificationType,
} from '@provee/domain';
import { IDENTITY_DOCUMENT_KINDS, REQUEST_TIMEOUT_SHORT_MS } from '@provee/domain';
import { ApiError, apiRequest } from '../../../shared/lib/api-client.js';

export type { SigningLink, VerificationStatusAnswer };

/** Whose contract: the path of every signing call (SPEC §7 puts the user type first). */
export interface SignerRef {
  userTypeId: string;
  userId: string;
}

/** The signing link's token is the Bearer of these calls, never the shopkeeper's session token. */
const authorizedBy = (token: string | null) => ({ headers: { authorization: `Bearer ${token ?? ''}` } });

const userPath = (signer: SignerRef, rest: string) =>
  `/api/v1/users/${encodeURIComponent(signer.userTypeId)}/${encodeURIComponent(signer.userId)}/${rest}`;

/** GET …/contract-link: whose link it is and where the signer stands. 401/403/409: the link is no longer good. */
export const getSigningLink = (signer: SignerRef, token: string | null) =>
  apiRequest<{ data: SigningLink }>('GET', userPath(signer, 'contract-link'), authorizedBy(token)).then((r) => r.data);

/** GET …/mati-status: the verifier's answer so far (status null: none yet). */
export const getVerificationStatus = (
  signer: SignerRef,
  query: { verificationType: VerificationType; personType: string },
  token: string | null,
) =>
  apiRequest<{ data: VerificationStatusAnswer }>(
    'GET',
    userPath(
      signer,
      `mati-status?verification_type=${query.verificationType}&person_type=${encodeURIComponent(query.personType)}`,
    ),
    // The screens wait on their own countdown; a poll must not hang past the next one.
    { ...authorizedBy(token), spinner: false, timeoutMs: REQUEST_TIMEOUT_SHORT_MS },
  ).then((r) => r.data);

export type IdentityPhotos = Record<IdentityDocumentKind, Blob>;

/** POST …/identity-documents (multipart): the three photos start a verification. */
export function uploadIdentityDocuments(
  signer: SignerRef,
  fields: { personType: string; verificationType: VerificationType },
  photos: IdentityPhotos,
  token: string | null,
) {
  const form = new FormData();
  form.append('person_type', fields.personType);
  form.append('verification_type', fields.verificationType);
  for (const kind of IDENTITY_DOCUMENT_KINDS) form.append(kind, photos[kind], `${kind}.jpg`);
  return apiRequest<{ data: IdentityDocumentsAnswer }>('POST', userPath(signer, 'identity-documents'), {
    ...authorizedBy(token),
    body: form,
  }).then((r) => r.data);
}

/** PUT …/contract: the handwritten signature. */
export const signContract = (signer: SignerRef, payload: SignContractPayload, token: string | null) =>
  apiRequest<{ data: SignContractAnswer }>('PUT', userPath(signer, 'contract'), {
    ...authorizedBy(token),
    body: payload,
  }).then((r) => r.data);

/** The contract PDF, opened in a new window (the token rides in the query: a link carries no header). */
export const contractDocumentUrl = (signer: SignerRef, token: string | null) =>
  `${userPath(signer, 'contract')}?token=${encodeURIComponent(token ?? '')}`;

/** The contract must be signed from a new link: 401 (expired, altered), 403, 409 LINK_USED (used, replaced). */
export const isLinkRefused = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 401 || error.status === 403 || (error.status === 409 && error.code === 'LINK_USED'));

/** On arrival any refusal of the link (401, 403, 409) asks for a new one. */
export const isLinkRefusedOnLoad = (error: unknown) =>
  isLinkRefused(error) || (error instanceof ApiError && error.status === 409);

/** SPEC §8: the server's 'user not in progress' means the contract is already signed. */
export const isAlreadySigned = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.message === 'user not in progress';

/** The upload refused because no verification attempt is left. */
export const isOutOfAttempts = (error: unknown) =>
  error instanceof ApiError && error.code === 'VERIFICATION_ATTEMPTS_EXHAUSTED';
