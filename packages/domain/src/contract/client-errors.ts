import { z } from 'zod';
import { defineCall } from './call.js';
import { reportClientErrorRoute } from './routes/client-errors.js';

/** POST /v1/client-errors (204): a failed call the web app reports (SPEC §8). */
export const clientErrorBody = z.object({
  level: z.enum(['warning', 'error']),
  method: z.string().max(10),
  path: z.string().max(500),
  status: z.number().int().min(0).max(599),
  code: z.string().max(100).optional(),
  message: z.string().max(1000).optional(),
  request_id: z.string().max(100).optional(),
});
export type ClientErrorReport = z.input<typeof clientErrorBody>;

export const reportClientErrorCall = defineCall(reportClientErrorRoute, {
  body: clientErrorBody,
  responses: { 204: z.null() },
});
