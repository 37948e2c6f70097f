import { route } from './route.js';

// Messages (issue 34): the resume link of a reminder, and the messaging provider's webhooks
// (delivery status and replies, signed by the provider).
export const redeemResumeLinkRoute = route('POST', '/api/v1/resume-links');
export const messageStatusWebhookRoute = route('POST', '/api/v1/webhooks/messages/:provider/status');
export const messageReplyWebhookRoute = route('POST', '/api/v1/webhooks/messages/:provider/inbound');
