export { signingRoutes } from './signing.routes.js';
export { startIdentityWorker } from './identity-worker.js';
export {
  answerCheck,
  answerDueSimulatedChecks,
  contractEvidence,
  issueContractLink,
  openContractPdf,
} from './signing.service.js';
