import type { IdentityCheckPayload, IdentityDocumentKind } from '@provee/domain';
import {
  identityCheckRoute,
  identityPhotoRoute,
  identityPhotosRoute,
  isErrorEnvelope,
  REQUEST_TIMEOUT_MS,
} from '@provee/domain';
import { ApiError } from '../../../shared/lib/api-client.js';
import { apiRequest, urlOf } from '../../../shared/lib/api-request.js';
import { signerPath, type SignerRef } from './signing.js';

/**
 * The built-in widget's photos one at a time (issue 27, docs/decisions/024): each goes up as soon
 * as it is accepted, named by the SHA-256 of its bytes; a small call then starts the check with
 * the three the server holds.
 */

const authorizedBy = (token: string | null) => ({ authorization: `Bearer ${token ?? ''}` });

/** The SHA-256 of a photo's bytes (hex): the key the server knows it by. */
export async function photoSha256(photo: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await photo.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const NETWORK_MESSAGE = 'No pudimos enviar la foto. Revisa tu conexión.';

/**
 * PUT …/identity-photos/:kind/:sha256 with the photo as the body. XMLHttpRequest, not fetch: its
 * upload reports progress. Resolves once the server has it; rejects with an ApiError (status 0:
 * no answer, the connection dropped).
 */
export function putPhoto(
  signer: SignerRef,
  photo: { kind: IdentityDocumentKind; blob: Blob; sha256: string },
  token: string | null,
  onProgress: (sent: number, total: number) => void,
): { done: Promise<void>; abort: () => void } {
  const request = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    const params = { ...signerPath(signer), kind: photo.kind, sha256: photo.sha256 };
    request.open(identityPhotoRoute.method, urlOf(identityPhotoRoute, { params }));
    request.setRequestHeader('authorization', authorizedBy(token).authorization);
    request.setRequestHeader('content-type', photo.blob.type || 'image/jpeg');
    request.setRequestHeader('accept', 'application/json');
    request.timeout = REQUEST_TIMEOUT_MS;
    request.upload.onprogress = (event) => onProgress(event.loaded, event.total || photo.blob.size);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (isErrorEnvelope(body)) {
        const { code, message, readable_message, issues, ...details } = body as typeof body & Record<string, unknown>;
        return reject(new ApiError(request.status, code, message, readable_message, issues, details));
      }
      reject(new ApiError(request.status, 'HTTP_ERROR', `HTTP ${request.status}`, ''));
    };
    const failed = () => reject(new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE, NETWORK_MESSAGE));
    request.onerror = failed;
    request.ontimeout = failed;
    request.onabort = failed;
    request.send(photo.blob);
  });
  return { done, abort: () => request.abort() };
}

/** GET …/identity-photos: what the server holds (asked before sending a photo again). */
export const heldPhotos = (signer: SignerRef, token: string | null) =>
  apiRequest(identityPhotosRoute, {
    params: signerPath(signer),
    headers: authorizedBy(token),
    spinner: false,
    report: false,
  }).then((r) => r.data);

/** POST …/identity-checks: the check starts with the three photos the server holds. */
export const submitIdentityCheck = (signer: SignerRef, payload: IdentityCheckPayload, token: string | null) =>
  apiRequest(identityCheckRoute, {
    params: signerPath(signer),
    headers: authorizedBy(token),
    body: payload,
  }).then((r) => r.data);

/** The check refused because the server lacks some photo: the kinds to send again. */
export function missingPhotos(error: unknown): IdentityDocumentKind[] | null {
  if (!(error instanceof ApiError) || error.code !== 'PHOTOS_MISSING') return null;
  const missing = error.details.missing;
  return Array.isArray(missing) ? (missing as IdentityDocumentKind[]) : [];
}
