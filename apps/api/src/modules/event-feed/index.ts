// What other modules use of the lender's feed (issue 30): the public events, the webhook endpoints and their sends.
export { recordPublicEvents, WEBHOOK_SEND_JOB, type WebhookSendData } from './record.js';
export { sendPending, signedHeaders, type DeliveryDeps } from './delivery.js';
export { eventMessage, type EventMessage } from './message.js';
export {
  findEndpoint,
  insertEndpoint,
  listApplicationEvents,
  type FeedPosition,
  listEndpoints,
  listSendsOfEndpoint,
  pendingApplications,
  replaySends,
  stalledSends,
  updateEndpoint,
  type EndpointRow,
} from './event-feed.store.js';
export { checkEndpointUrl, newEndpointSecret } from './endpoint-url.js';
