import { createHmac, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Who a token was issued for: a proven phone number, a registered user, or a guarantor invited by
 * SMS (their link's token: good for that guarantor of that application, at that number only). A
 * contract-signing link carries no such token: an opaque one, stored hashed (signing/link-token.ts).
 */
export type Principal =
  | { kind: 'phone'; phoneE164: string }
  | { kind: 'user'; userId: string; phoneE164: string }
  | { kind: 'aval'; avalId: string; userId: string; phoneE164: string };

interface TokenBody {
  v: 1;
  sub: Principal;
  iat: number;
  exp: number;
  jti: string;
}

export interface TokenService {
  /** `ttlSeconds`: a lifetime other than the service's (an invitation link lasts days). */
  issue(principal: Principal, ttlSeconds?: number): { token: string; expiresAt: Date };
  /** The principal, or null for a forged, malformed or expired token. */
  verify(token: string): Principal | null;
  /** How many verified tokens are remembered now (at most VERIFIED_TOKENS_KEPT). */
  remembered(): number;
}

/** How many verified tokens are remembered (the most recently verified; ~6 MB at most). */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signed, expiring bearer tokens (HMAC-SHA256): no session table to read on every request.
 * A token that verified is remembered with its expiry, so the phone's next requests with it skip
 * the HMAC and the decoding (about a fifth of a user-detail read's time here, docs/PERFORMANCE.md);
 * its expiry is still checked on every use, and a forged token is never remembered.
 */
export function createTokenService(key: Buffer, ttlSeconds: number, now: () => number = Date.now): TokenService {
  const secret = createSecretKey(key);
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  const verified = new Map<string, { principal: Principal; expiresAtMs: number }>();
  function remember(token: string, principal: Principal, expiresAtMs: number) {
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(token, { principal: Object.freeze(principal), expiresAtMs });
  }
  return {
    issue(principal, lifetime = ttlSeconds) {
      const iat = Math.floor(now() / 1000);
      const body: TokenBody = { v: 1, sub: principal, iat, exp: iat + lifetime, jti: randomUUID() };
      const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
      return { token: `${payload}.${sign(payload)}`, expiresAt: new Date(body.exp * 1000) };
    },
    verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAtMs > now()) return known.principal;
        verified.delete(token);
        return null;
      }
      const [payload, signature, extra] = token.split('.');
      if (!payload || !signature || extra !== undefined) return null;
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenBody;
        if (body.v !== 1 || typeof body.exp !== 'number' || body.exp * 1000 <= now()) return null;
        remember(token, body.sub, body.exp * 1000);
        return body.sub;
      } catch {
        return null;
      }
    },
    remembered: () => verified.size,
  };
}
