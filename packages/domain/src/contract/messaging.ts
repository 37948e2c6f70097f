import { z } from 'zod';
import { defineCall, refusals } from './call.js';
import { messageReplyWebhookRoute, messageStatusWebhookRoute, redeemResumeLinkRoute } from './routes/messaging.js';

/**
 * POST /v1/resume-links: a reminder's link, spent once. It answers the number it was sent to and
 * where to prove it again (the entry screen with the number filled in); the phone proof then routes
 * to the step where the applicant stopped. 410 for a link used, replaced or expired.
 */
export const redeemResumeLinkBody = z.object({
  token: z.string().min(20, 'Este enlace no es válido.').max(200, 'Este enlace no es válido.'),
});
export type RedeemResumeLinkBody = z.input<typeof redeemResumeLinkBody>;
export const resumeLinkResponse = z.object({ data: z.object({ phone_number: z.string(), path: z.string() }) });
export type ResumeLink = z.infer<typeof resumeLinkResponse>['data'];
export const redeemResumeLinkCall = defineCall(redeemResumeLinkRoute, {
  body: redeemResumeLinkBody,
  responses: { 200: resumeLinkResponse, ...refusals(400, 410, 429) },
});

/** The messaging provider's webhooks: a form from Twilio (X-Twilio-Signature), JSON from the simulator. */
export const messageWebhookParams = z.object({ provider: z.string().max(40) });
const webhookAnswer = {
  200: {
    description: 'Recibido (Twilio recibe TwiML vacío)',
    content: {
      'application/json': { schema: z.object({ data: z.object({ recorded: z.boolean() }) }) },
      'text/xml': { schema: z.string() },
    },
  },
  ...refusals(401, 404),
};

/** POST /v1/webhooks/messages/:provider/status: a message's delivery status (Twilio's StatusCallback). */
export const messageStatusWebhookCall = defineCall(messageStatusWebhookRoute, {
  params: messageWebhookParams,
  /** `m`: our id of the message, in the callback URL the sender gave (signed with it). */
  query: z.object({ m: z.uuid().optional() }),
  body: z.unknown(),
  responses: webhookAnswer,
});

/** POST /v1/webhooks/messages/:provider/inbound: a reply to our senders ("BAJA" stops the reminders). */
export const messageReplyWebhookCall = defineCall(messageReplyWebhookRoute, {
  params: messageWebhookParams,
  body: z.unknown(),
  responses: webhookAnswer,
});
