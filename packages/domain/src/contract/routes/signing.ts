import type { Route } from '../call.js';

// Where the signing link's calls go (SPEC §7 puts the user type first): the link, the identity
// check's photos and status, the signature and the contract (zod-free, one value per call).
const signer = '/api/v1/users/:type/:id';

export const signingLinkRoute = { method: 'GET', path: `${signer}/contract-link` } as const satisfies Route;
export const verificationStatusRoute = { method: 'GET', path: `${signer}/mati-status` } as const satisfies Route;
export const signContractRoute = { method: 'PUT', path: `${signer}/contract` } as const satisfies Route;
export const contractPdfRoute = { method: 'GET', path: `${signer}/contract` } as const satisfies Route;
export const contractEvidenceRoute = { method: 'GET', path: `${signer}/contract/evidence` } as const satisfies Route;

export const identityDocumentsRoute = {
  method: 'POST',
  path: `${signer}/identity-documents`,
} as const satisfies Route;
export const identityPhotoRoute = {
  method: 'PUT',
  path: `${signer}/identity-photos/:kind/:sha256`,
} as const satisfies Route;
export const identityPhotosRoute = { method: 'GET', path: `${signer}/identity-photos` } as const satisfies Route;
export const identityCheckRoute = { method: 'POST', path: `${signer}/identity-checks` } as const satisfies Route;
