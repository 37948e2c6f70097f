// What other modules use of the guarantors (avals).
export { guarantorInvitationRoutes, guarantorRoutes } from './guarantors.routes.js';
export { startRemoteConsentWorker } from './remote-consent-worker.js';
export { avalView, inviteAval, registerAval } from './guarantors.service.js';
