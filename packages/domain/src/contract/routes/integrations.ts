import { route } from './route.js';

// The lender's systems as admins manage them (issue 30): webhook endpoints and partner API keys (zod-free).
const endpoints = '/api/backoffice/webhook-endpoints';
export const listWebhookEndpointsRoute = route('GET', endpoints);
export const createWebhookEndpointRoute = route('POST', endpoints);
export const updateWebhookEndpointRoute = route('PATCH', `${endpoints}/:endpointId`);
export const rotateWebhookSecretRoute = route('POST', `${endpoints}/:endpointId/secret`);
export const listWebhookSendsRoute = route('GET', `${endpoints}/:endpointId/sends`);
export const replayWebhookSendsRoute = route('POST', `${endpoints}/:endpointId/replay`);

const keys = '/api/backoffice/partner-keys';
export const listPartnerKeysRoute = route('GET', keys);
export const createPartnerKeyRoute = route('POST', keys);
export const revokePartnerKeyRoute = route('POST', `${keys}/:keyId/revoke`);
