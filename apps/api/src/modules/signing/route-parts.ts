import type { FastifyRequest } from 'fastify';
import { requireSigningLink } from './link-token.js';

/** The link the call's token names, or a 401 before the body is read or validated (issue 26; link-token.ts). */
export const signingLink = async (request: FastifyRequest) => {
  await requireSigningLink(request);
};
