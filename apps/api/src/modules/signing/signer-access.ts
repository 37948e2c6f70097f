import type { PersonType } from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { SignerRow } from '../application/index.js';
import { ALREADY_SIGNED, FORBIDDEN, findSigner } from '../identity/index.js';
import { findUserById } from '../users/index.js';
import { requireSigningLink, type LinkRow } from './link-token.js';

export const LINK_USED = new AppError(
  409,
  'LINK_USED',
  'link no longer valid',
  'Este enlace ya no es válido: el contrato debe firmarse desde un enlace nuevo. Pídelo a tu analista.',
);
/** The lender declined the application (or it was refused): nothing is signed for it any more. */
const APPLICATION_CLOSED = new AppError(
  409,
  'APPLICATION_CLOSED',
  'application rejected',
  'Esta solicitud ya no está vigente: no hace falta firmar el contrato.',
);
const LINK_EXPIRED = new AppError(
  401,
  'LINK_EXPIRED',
  'link expired',
  'Este enlace ya venció: el contrato debe firmarse desde un enlace nuevo. Pídelo a tu analista.',
);

export interface SignerAccess {
  link: LinkRow;
  signer: SignerRow;
}

/**
 * The signer of a call: the link its token names (link-token.ts; the route's onRequest hook found
 * it, or a 401), for this user. Signing calls need the signing link unused, unreplaced and
 * unexpired; reading the contract and its evidence (`readOnly`) works with a used link, or the
 * signed copy's link, until it expires.
 */
export async function signerAccess(
  request: FastifyRequest,
  userId: string,
  options: { personType?: PersonType; readOnly?: boolean } = {},
): Promise<SignerAccess> {
  const app = request.server;
  const link = await requireSigningLink(request);
  const signer = await findSigner(app.db, link.signerId);
  if (!signer || signer.userId !== userId) throw FORBIDDEN;
  if (options.personType && options.personType !== signer.personType) throw FORBIDDEN;
  // A replaced link stops at once, even for reading; a used one (the signature) still opens the copy.
  if (link.revokedAt) throw LINK_USED;
  if (link.expiresAt.getTime() <= app.clock().getTime()) throw LINK_EXPIRED;
  if (!options.readOnly) {
    if (signer.state === 'SIGNED') throw ALREADY_SIGNED();
    if (link.usedAt || link.purpose !== 'sign') throw LINK_USED;
    if ((await findUserById(app.db, userId))?.status === 'REJECTED') throw APPLICATION_CLOSED;
  }
  return { link, signer };
}
