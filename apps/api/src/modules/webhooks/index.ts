// Vendors' webhook deliveries seen: what other modules use to recognise a replay.
export { bodyDigest, claimDelivery, ReplayedDelivery } from './deliveries.js';
export { deliverySeen, recordDelivery } from './deliveries.store.js';
export { keepSignedBodies } from './signed-bodies.js';
