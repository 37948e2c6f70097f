import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Who a token was issued for: a proven phone number, a registered user, a guarantor invited by
 * SMS (their link's token: good for that guarantor of that application, at that number only), or
 * a signer's contract link.
 */
export type Principal =
  | { kind: 'phone'; phoneE164: string }
  | { kind: 'user'; userId: string; phoneE164: string }
  | { kind: 'aval'; avalId: string; userId: string; phoneE164: string }
  /** A contract-signing link (or the signed copy's link): that signer of that application only. */
  | { kind: 'signer'; linkId: string; signerId: string; userId: string; phoneE164: string };

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
}

/** Signed, expiring bearer tokens (HMAC-SHA256): no session table to read on every request. */
export function createTokenService(key: Buffer, ttlSeconds: number, now: () => number = Date.now): TokenService {
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    issue(principal, lifetime = ttlSeconds) {
      const iat = Math.floor(now() / 1000);
      const body: TokenBody = { v: 1, sub: principal, iat, exp: iat + lifetime, jti: randomUUID() };
      const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
      return { token: `${payload}.${sign(payload)}`, expiresAt: new Date(body.exp * 1000) };
    },
    verify(token) {
      const [payload, signature, extra] = token.split('.');
      if (!payload || !signature || extra !== undefined) return null;
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenBody;
        if (body.v !== 1 || typeof body.exp !== 'number' || body.exp * 1000 <= now()) return null;
        return body.sub;
      } catch {
        return null;
      }
    },
  };
}
