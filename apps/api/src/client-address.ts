import type { FastifyRequest } from 'fastify';

/** Where a request came from, as the consent and signature evidence record it. */
export interface ClientAddress {
  /** The client's address as trusted (TRUST_PROXY): what the limits count and the evidence shows. */
  ip: string;
  /** The address the connection itself came from: the proxy's, behind one. */
  peerIp: string | null;
  /** X-Forwarded-For as received (any part a client wrote is in it too), at most 512 characters. */
  forwardedFor: string | null;
}

export const FORWARDED_FOR_MAX = 512;

/**
 * The trusted client address beside what it was derived from: if TRUST_PROXY was ever wrong for
 * the deployment, the evidence still shows who connected and what the chain said.
 */
export function clientAddress(request: FastifyRequest): ClientAddress {
  const header = request.headers['x-forwarded-for'];
  const chain = Array.isArray(header) ? header.join(', ') : header;
  return {
    ip: request.ip,
    peerIp: request.socket.remoteAddress ?? null,
    forwardedFor: chain ? chain.slice(0, FORWARDED_FOR_MAX) : null,
  };
}

/** What a consent or a signature records of the request: where it came from and the browser it named. */
export function requestEvidence(request: FastifyRequest): ClientAddress & { userAgent: string | undefined } {
  return { ...clientAddress(request), userAgent: request.headers['user-agent'] };
}
