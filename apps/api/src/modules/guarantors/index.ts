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
export { invitationLink, invitationMessages, inviteAval } from './invitation.js';
export { shopkeeperName } from './guarantor.js';
export { registerAval } from './naming.js';
