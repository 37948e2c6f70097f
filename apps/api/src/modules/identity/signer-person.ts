import type { SignerRow } from '../application/index.js';

/**
 * Whose data key seals what a signer gives — identity photos, documents, signature (decision 032):
 * a guarantor's own (avals.id), else the applicant's (users.id).
 */
export const signerPersonId = (signer: Pick<SignerRow, 'avalId' | 'userId'>): string => signer.avalId ?? signer.userId;
