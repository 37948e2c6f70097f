import type {
  SignContractPayload,
  SignerParams,
  SigningLink,
  VerificationStatusAnswer,
  VerificationType,
} from '@provee/domain';
import {
  contractPdfRoute,
  REQUEST_TIMEOUT_SHORT_MS,
  signContractRoute,
  signingLinkRoute,
  verificationStatusRoute,
} from '@provee/domain';
import { ApiError } from '../../../shared/lib/api-client.js';
import { apiRequest, urlOf } from '../../../shared/lib/api-request.js';

export type { SigningLink, VerificationStatusAnswer };

/** Whose contract: the path of every signing call (SPEC §7 puts the user type first). */
export interface SignerRef {
  userTypeId: string;
  userId: string;
}

/** The signing link's token is the Bearer of these calls, never the shopkeeper's session token. */
const authorizedBy = (token: string | null) => ({ headers: { authorization: `Bearer ${token ?? ''}` } });

/** The path params of every signing call; the user type comes from the link as it is (the server checks it). */
export const signerPath = (signer: SignerRef): SignerParams => ({
  type: signer.userTypeId as SignerParams['type'],
  id: signer.userId,
});

/** GET …/contract-link: whose link it is and where the signer stands. 401/403/409: the link is no longer good. */
export const getSigningLink = (signer: SignerRef, token: string | null) =>
  apiRequest(signingLinkRoute, { params: signerPath(signer), ...authorizedBy(token) }).then((r) => r.data);

/**
 * GET …/mati-status: the verifier's answer so far (status null: none yet). With `wait` (seconds)
 * the server answers as soon as it has an answer, or after that long; an answer of the check
 * `previous` does not count (issue 27).
 */
export const getVerificationStatus = (
  signer: SignerRef,
  query: { verificationType: VerificationType; personType: string; wait?: number; previous?: string | null },
  token: string | null,
  signal?: AbortSignal,
) => {
  return apiRequest(verificationStatusRoute, {
    params: signerPath(signer),
    query: {
      verification_type: query.verificationType,
      person_type: query.personType as SigningLink['person_type'],
      wait: query.wait,
      previous: query.previous || undefined,
    },
    ...authorizedBy(token),
    // The screens wait on their own countdown; a request must not hang past the next one (a
    // waiting one answers within its `wait`). Those that wait fail on a bad connection and are
    // asked again: not worth a report each.
    spinner: false,
    timeoutMs: REQUEST_TIMEOUT_SHORT_MS,
    ...(query.wait ? { report: false } : {}),
    signal,
  }).then((r) => r.data);
};

/** PUT …/contract: the handwritten signature. */
export const signContract = (signer: SignerRef, payload: SignContractPayload, token: string | null) =>
  apiRequest(signContractRoute, { params: signerPath(signer), ...authorizedBy(token), body: payload }).then(
    (r) => r.data,
  );

/** The contract PDF, opened in a new window (the token rides in the query: a link carries no header). */
export const contractDocumentUrl = (signer: SignerRef, token: string | null) =>
  urlOf(contractPdfRoute, { params: signerPath(signer), query: { token: token ?? '' } });

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
