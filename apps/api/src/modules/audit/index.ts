// What other modules use of the audit trail.
export { appendAuditEvent, verifyAuditChain, type AuditEventInput } from './audit.service.js';
