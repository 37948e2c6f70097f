/**
 * The contract PDF (issue 11): what each party signs, and the signed copy with one evidence page
 * per signer. Pure: bytes in, bytes out; storing them and the evidence record is the caller's job.
 */
export { renderUnsignedContract } from './unsigned.js';
export { renderSignedContract } from './signed.js';
export { sha256Hex } from './hash.js';
export { signatureSlotRect, SLOTS_PER_PAGE, type SlotRect } from './layout.js';
export { CONTRACT_TEMPLATE_VERSIONS } from './templates/index.js';
export type { ContractDocumentInput, ContractParty, SignatureEvidence, SignedParty } from './types.js';
