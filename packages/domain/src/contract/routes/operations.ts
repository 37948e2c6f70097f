import type { Route } from '../call.js';

// The service's own calls: its health, the caller's address, the audit trail (operations' API key),
// and the vendors' webhooks (signed by them).
export const healthRoute = { method: 'GET', path: '/api/health' } as const satisfies Route;
export const clientIpRoute = { method: 'GET', path: '/api/v1/ip' } as const satisfies Route;
export const auditTrailRoute = { method: 'GET', path: '/ops/v1/audit/:applicationId' } as const satisfies Route;
export const reverseOtpWebhookRoute = {
  method: 'POST',
  path: '/api/v1/webhooks/reverse-otp/:provider',
} as const satisfies Route;
export const metamapWebhookRoute = {
  method: 'POST',
  path: '/api/v1/webhooks/identity/metamap',
} as const satisfies Route;
