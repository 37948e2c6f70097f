// What other modules use of the audit trail.
export {
  appendAuditEvent,
  listAuditEvents,
  phoneAuditId,
  verifyAuditChain,
  verifyEvents,
  type AuditEventInput,
} from './audit.service.js';
export { eventsOfType, lastEventAt, lockChain } from './audit.store.js';
