// What other modules use of the contract: its links, its PDFs and its evidence (identity verification: modules/identity).
import './decorations.js';
export { signingRoutes } from './signing.routes.js';
export { createContractRenderer, type ContractRenderer } from './contract-renderer.js';
export { openContractPdf } from './contract.js';
export { signingDeps, type SigningDeps } from './deps.js';
export { contractCopyJob } from './copy-job.js';
export { sealCompletionJob, sealSweepJob } from './seal/completion.js';
export { createContractSealer, type ContractSealer } from './seal/sealer.js';
export { contractSeal } from './seal/seal-view.js';
export { checkContractCopy } from './seal/check.js';
export { signingInvitationJob } from './invitation-job.js';
export { contractEvidence } from './evidence.js';
export { copyMessages, issueContractLink, remindSigner, signingLinkMessages } from './links.js';
export { linkTokenHash, newLinkToken } from './link-token.js';
