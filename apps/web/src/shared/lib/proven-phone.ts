import { SESSION_KEYS } from '@provee/domain';
import { session } from './session.js';

/** Seconds since the epoch at which the stored token expires (its signed body says so), or 0. */
function tokenExpiry(bearer: string): number {
  try {
    const payload = bearer.replace(/^Bearer /, '').split('.')[0] ?? '';
    const body = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof body.exp === 'number' ? body.exp : 0;
  } catch {
    return 0;
  }
}

/** The number this tab proved, while its token is still valid; null otherwise. */
export function provenPhone(now: number = Date.now()): string | null {
  const phone = session.get(SESSION_KEYS.provenPhone);
  const token = session.get(SESSION_KEYS.clientToken);
  if (!phone || !token) return null;
  return tokenExpiry(token) * 1000 > now ? phone : null;
}
