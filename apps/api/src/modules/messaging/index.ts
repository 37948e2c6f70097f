// Sending messages (WhatsApp first, SMS when it fails) for every module that writes to a person:
// phone proof, consent PIN, invitations, links, reminders; their delivery status and replies.
export {
  deliverMessage,
  enqueueMessage,
  MESSAGE_SEND_JOB,
  messageSendJob,
  smsUnavailable,
  type MessageDeps,
  type MessageJobData,
  type MessagePurpose,
  type OutgoingMessage,
  type QueuedMessage,
} from './message-job.js';
export { channelsFor } from './channel-policy.js';
export { LEGACY_SMS_JOB, legacySmsJob } from './legacy-sms-job.js';
export { queueSimulatedReports, SIMULATED_DELIVERY_JOB, simulatedDeliveryJob } from './simulated-delivery-job.js';
export { listMessagesOf, sealedMessages } from './messages.store.js';
export { optedOut } from './opt-outs.js';
export { messageWebhookRoutes } from './webhooks.routes.js';
export type { FirstTry } from './first-tries.js';
