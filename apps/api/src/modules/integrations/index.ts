// The lender's systems (issue 30): webhook endpoints and partner keys as admins manage them (back office).
export { integrationRoutes } from './integrations.routes.js';
export { createPartnerKey, partnerKeyHash } from './partner-keys.service.js';
export { findPartnerKeyByHash, recordPartnerCall, type PartnerKeyRow } from './partner-keys.store.js';
export { webhookSendJob, webhookSweepJob } from './webhook-job.js';
