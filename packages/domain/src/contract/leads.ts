import { z } from 'zod';
import { defineCall } from './call.js';
import { phoneNumberSchema } from './common.js';
import { assignLeadRoute } from './routes/leads.js';

/** POST /ops/v1/lead-assignment: the lead, sent and answered (201 first time, 200 after). */
export const leadSchema = z.object({
  lead_id: z.string().min(1).max(100),
  lead_type: z.literal('INTERNAL'),
  shopkeeper_phone: phoneNumberSchema,
  utm_source: z.string().max(200).nullish(),
  utm_medium: z.string().max(200).nullish(),
  utm_campaign: z.string().max(200).nullish(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type LeadPayload = z.input<typeof leadSchema>;
export const leadResponse = z.object({ data: leadSchema });
export type Lead = z.infer<typeof leadSchema>;

export const assignLeadCall = defineCall(assignLeadRoute, {
  body: leadSchema,
  responses: { 200: leadResponse, 201: leadResponse },
});
