import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { findLinkByTokenSha256, type LinkRow } from './signing.store.js';

export type { LinkRow };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signing link the call's token names (requireSigningLink). */
    signingLink?: LinkRow;
  }
}

/** 32 random bytes in base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const linkTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new link token (issue 26): opaque, so the SMS link says nothing about whom it is for, and
 * stored only as its SHA-256, so a copy of the database opens no link. The row it is stored on
 * (contract_links) says whose it is, until when, and whether it was used or replaced.
 */
export function newLinkToken(): { token: string; sha256: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, sha256: linkTokenHash(token) };
}

const INVALID_LINK = new AppError(401, 'UNAUTHENTICATED', 'unauthenticated', 'Este enlace no es válido o ya venció.');

/** The token of a signing call: the Bearer header, or `token` in the query (the PDF opens in a new window). */
function tokenOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  const fromQuery = (request.query as { token?: unknown } | undefined)?.token;
  return typeof fromQuery === 'string' ? fromQuery : '';
}

/**
 * Every signing call's preParsing hook (after the flood guard's onRequest): the link its token
 * names, or a 401 before the body is read or the request validated (issue 26). Whose link it is
 * and what it may do is the handler's (signerAccess).
 */
export async function requireSigningLink(request: FastifyRequest): Promise<LinkRow> {
  if (request.signingLink) return request.signingLink;
  const token = tokenOf(request);
  if (!TOKEN.test(token)) throw INVALID_LINK;
  const link = await findLinkByTokenSha256(request.server.db, linkTokenHash(token));
  if (!link) throw INVALID_LINK;
  request.signingLink = link;
  return link;
}
