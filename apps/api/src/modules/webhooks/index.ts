// Vendors' webhook deliveries seen: what other modules use to recognise a replay.
export { bodyDigest, claimDelivery, deliverySeen, recordDelivery, ReplayedDelivery } from './deliveries.js';
