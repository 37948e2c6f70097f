import { z } from 'zod';

/** The error envelope as a schema, for the API's OpenAPI document and response checks. */
export const errorEnvelopeSchema = z.object({
  code: z.string(),
  message: z.string(),
  readable_message: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
