import type { FastifyRequest } from 'fastify';
import type { SignerRow } from '../application/index.js';

/**
 * How a call of the signing link finds its signer. The link is the contract's: modules/signing
 * issues it and hands this gate over when it registers identity's routes, since identity sits
 * below the contract and never imports it.
 */
export interface SignerGate {
  /** preParsing: the link the call's token names, or a 401 before the body is read or validated (issue 26). */
  signingLink: (request: FastifyRequest) => Promise<void>;
  /** The signer the link may act for (a replaced, used, expired or another person's link: a 4xx). */
  signerAccess: (request: FastifyRequest, userId: string) => Promise<{ signer: SignerRow }>;
}

export interface IdentityRouteOptions {
  gate: SignerGate;
}
