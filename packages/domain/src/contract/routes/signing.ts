import { route } from './route.js';

// Where the signing link's calls go (SPEC §7 puts the user type first): the link, the identity
// check's photos and status, the signature and the contract (zod-free, one value per call).
const signer = '/api/v1/users/:type/:id';

export const signingLinkRoute = route('GET', `${signer}/contract-link`);
export const verificationStatusRoute = route('GET', `${signer}/mati-status`);
export const signContractRoute = route('PUT', `${signer}/contract`);
export const contractPdfRoute = route('GET', `${signer}/contract`);
export const contractEvidenceRoute = route('GET', `${signer}/contract/evidence`);

export const identityDocumentsRoute = route('POST', `${signer}/identity-documents`);
export const identityPhotoRoute = route('PUT', `${signer}/identity-photos/:kind/:sha256`);
export const identityPhotosRoute = route('GET', `${signer}/identity-photos`);
export const identityCheckRoute = route('POST', `${signer}/identity-checks`);
