import { SESSION_KEYS } from '@provee/domain';
import { provenPhone, tokenBody } from './proven-phone.js';
import { session } from './session.js';

// What the step screens ask of the stored session (kept out of the landing's first load).

/** This tab holds a valid session for `phone` (for the number it proved, when `phone` is empty). */
export function hasSession(phone: string | null | undefined, now: number = Date.now()): boolean {
  const proven = provenPhone(now);
  return proven !== null && (!phone || proven === phone);
}

/**
 * The application the stored session belongs to: registering hands out the user's own token, so
 * a tab that only proved its number (a phone's token) has registered nothing yet.
 */
export function sessionUserId(): string | null {
  const token = session.get(SESSION_KEYS.clientToken);
  const sub = token ? tokenBody(token)?.sub : undefined;
  return sub?.kind === 'user' && typeof sub.userId === 'string' ? sub.userId : null;
}
