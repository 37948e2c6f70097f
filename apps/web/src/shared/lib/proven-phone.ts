import { SESSION_KEYS } from '@provee/domain';
import { session } from './session.js';

/** The stored token's signed body (readable; only the server can make one), or null. */
export function tokenBody(bearer: string): { exp?: unknown; sub?: { kind?: unknown; userId?: unknown } } | null {
  try {
    const payload = bearer.replace(/^Bearer /, '').split('.')[0] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as ReturnType<typeof tokenBody>;
  } catch {
    return null;
  }
}

/** Seconds since the epoch at which the stored token expires (its signed body says so), or 0. */
function tokenExpiry(bearer: string): number {
  const exp = tokenBody(bearer)?.exp;
  return typeof exp === 'number' ? exp : 0;
}

/** The number this tab proved, while its token is still valid; null otherwise. */
export function provenPhone(now: number = Date.now()): string | null {
  const phone = session.get(SESSION_KEYS.provenPhone);
  const token = session.get(SESSION_KEYS.clientToken);
  if (!phone || !token) return null;
  return tokenExpiry(token) * 1000 > now ? phone : null;
}

/**
 * Where a tab without a valid session goes (SPEC §8: /home): with the number known, straight to a
 * new proof of it (`/home/{phone}/verify`), what was typed kept for the return.
 */
export function reproveTarget(phone: string | null | undefined): string {
  return phone && /^\d{10}$/.test(phone) ? `/home/${phone}/verify` : '/home';
}
