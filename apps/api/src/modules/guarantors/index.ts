// What other modules use of the guarantors (avals).
export { guarantorInvitationRoutes, guarantorRoutes } from './guarantors.routes.js';
export { startRemoteConsentWorker } from './remote-consent-worker.js';
export { avalView, describeGuarantor, guarantorBureau, guarantorTaxId, type Guarantor } from './guarantor.js';
export { findAval, listApprovedAvals, type AvalRow } from './guarantors.store.js';
export { inviteAval } from './invitation.js';
export { registerAval } from './naming.js';
