import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Principal } from './tokens.js';

const UNAUTHENTICATED = 'Tu sesión no es válida o ya venció. Vuelve a verificar tu número.';

/** The caller's principal from `Authorization: Bearer …`; 401 when missing, forged or expired. */
export function requirePrincipal(request: FastifyRequest): Principal {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  const principal = token ? request.server.tokens.verify(token) : null;
  if (!principal) throw new AppError(401, 'UNAUTHENTICATED', 'unauthenticated', UNAUTHENTICATED);
  return principal;
}

/**
 * A route's preParsing hook (issue 26): no valid token, a 401 before the body is read and before
 * the path, query or body is validated, so a caller without one learns nothing from a 400's field
 * list. preParsing, not onRequest: the flood guard (@fastify/rate-limit) is the route's last
 * onRequest hook, and a refusal before it would not be counted. Which user the token may touch is
 * still the handler's (403).
 */
export async function requireToken(request: FastifyRequest): Promise<void> {
  requirePrincipal(request);
}

/**
 * The shopkeeper's own tokens (phone proof, registration). A guarantor's invitation carries a
 * phone too, but opens only its own calls, never the shopkeeper's (and a signing link's opaque
 * token is no token of this service at all).
 */
function isOwnerToken(principal: Principal): boolean {
  return principal.kind === 'phone' || principal.kind === 'user';
}

const FORBIDDEN = new AppError(403, 'FORBIDDEN', 'forbidden', 'No tienes permiso para ver esta información.');

/** The caller proved this phone number (or is the user registered with it). */
export function requirePhoneAccess(request: FastifyRequest, phoneE164: string): Principal {
  const principal = requirePrincipal(request);
  if (!isOwnerToken(principal) || principal.phoneE164 !== phoneE164) throw FORBIDDEN;
  return principal;
}

/**
 * The caller owns this user: a token issued for the user, or for the phone the user registered
 * with (the phone proof comes before the user token). Checked before the user is even looked up
 * when possible, so another user's id answers 403 whether it exists or not.
 */
export function requireUserAccess(request: FastifyRequest, user: { id: string; phoneE164: string } | undefined): void {
  const principal = requirePrincipal(request);
  if (!user || !isOwnerToken(principal)) throw FORBIDDEN;
  // A user token names the application and the phone it was proven for: an erased application's
  // phone is tombstoned (modules/privacy), so the tokens handed out before stop opening it.
  if (principal.phoneE164 !== user.phoneE164 || (principal.kind === 'user' && principal.userId !== user.id))
    throw FORBIDDEN;
}
