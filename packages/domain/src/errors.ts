import { z } from 'zod';

/** The error envelope as a schema, for the API's OpenAPI document and response checks. */
export const errorEnvelopeSchema = z.object({
  code: z.string(),
  message: z.string(),
  readable_message: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** The answer of every error status a call documents; extra fields (retry_after_seconds, current…) pass. */
export const errorResponseSchema = errorEnvelopeSchema.loose();
