export { signingRoutes } from './signing.routes.js';
export { startIdentityWorker } from './identity-worker.js';
export { createContractRenderer, type ContractRenderer } from './contract-renderer.js';
export { createImageDecoder, type ImageDecoder } from './decode.js';
export {
  answerCheck,
  answerDueSimulatedChecks,
  contractEvidence,
  issueContractLink,
  openContractPdf,
} from './signing.service.js';
