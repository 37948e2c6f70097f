// What other modules use of the audit trail.
export { appendAuditEvent, phoneAuditId, verifyAuditChain, type AuditEventInput } from './audit.service.js';
