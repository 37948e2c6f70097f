// What other modules use of the audit trail.
export {
  appendAuditEvent,
  auditEventPage,
  listAuditEvents,
  phoneAuditId,
  type AuditEvent,
  type AuditEventInput,
} from './audit.service.js';
export { verifyAuditChain, verifyAuditChainSinceCheckpoint, type ChainVerification } from './chain-verification.js';
export { eventsOfType, lastEventAt, lastHash as auditChainHead, lockChain } from './audit.store.js';
