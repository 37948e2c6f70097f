import type { FastifyRequest } from 'fastify';
import { errorResponseSchema } from '../../errors.js';
import { requireSigningLink } from './link-token.js';

/** The error statuses every signing call documents. */
export const signingErrors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  413: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
};

/** The link the call's token names, or a 401 before the body is read or validated (issue 26; link-token.ts). */
export const signingLink = async (request: FastifyRequest) => {
  await requireSigningLink(request);
};
