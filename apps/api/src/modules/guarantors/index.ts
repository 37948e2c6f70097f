// What other modules use of the guarantors (avals).
export { guarantorInvitationRoutes, guarantorRoutes } from './guarantors.routes.js';
export { remoteConsentJob } from './remote-consent.js';
export {
  avalView,
  describeGuarantor,
  guarantorBureau,
  guarantorKeys,
  guarantorTaxId,
  type Guarantor,
} from './guarantor.js';
export { findAval, listApprovedAvals, type AvalRow } from './guarantors.store.js';
export { invitationMessages, inviteAval } from './invitation.js';
export { registerAval } from './naming.js';
