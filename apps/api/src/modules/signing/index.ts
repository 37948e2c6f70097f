export { signingRoutes } from './signing.routes.js';
export { startIdentityWorker } from './identity-worker.js';
export { answerCheck, answerDueSimulatedChecks, contractEvidence, issueContractLink } from './signing.service.js';
