import { route } from './route.js';

// The service's own calls: its health, the caller's address, the audit trail (operations' API key),
// and the vendors' webhooks (signed by them).
export const healthRoute = route('GET', '/api/health');
export const clientIpRoute = route('GET', '/api/v1/ip');
export const auditTrailRoute = route('GET', '/ops/v1/audit/:applicationId');
export const reverseOtpWebhookRoute = route('POST', '/api/v1/webhooks/reverse-otp/:provider');
export const metamapWebhookRoute = route('POST', '/api/v1/webhooks/identity/metamap');
