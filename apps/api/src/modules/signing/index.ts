export { opsSigningRoutes, signingRoutes } from './signing.routes.js';
export { startIdentityWorker } from './identity-worker.js';
export { answerCheck, answerDueSimulatedChecks, issueContractLink } from './signing.service.js';
