import { createHmac, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';

/**
 * Single sign-on through the lender's OpenID Connect provider (openid-client, the certified relying
 * party library): authorization code with PKCE (S256), state and nonce. What the browser carries
 * between the two legs (state, nonce, PKCE verifier) is a signed cookie that lives 10 minutes; the ID
 * token's signature, issuer, audience, expiry and nonce are checked by openid-client. The person is
 * matched by their verified e-mail to an account an admin created: nobody is made here.
 */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  redirectUri: string;
  /** Ask for the ID token's amr and auth_time (OIDC Core §5.5), to accept the provider's own second factor. */
  askAuthenticationMethods: boolean;
}

export interface SsoIdentity {
  email: string;
  /** RFC 8176 authentication methods, as the provider reported them. */
  amr: string[];
  authTime: Date | null;
}

/** Methods of RFC 8176 that are, or include, a second factor. */
const SECOND_FACTOR_AMR = new Set(['mfa', 'otp', 'hwk', 'sc', 'fpt', 'face', 'iris', 'retina', 'vbm']);
export const providerGaveSecondFactor = (identity: SsoIdentity) => identity.amr.some((m) => SECOND_FACTOR_AMR.has(m));

export class SsoError extends Error {
  constructor(readonly reason: 'failed' | 'unverified' | 'expired') {
    super(`single sign-on ${reason}`);
  }
}

export const SSO_COOKIE = 'provee_sso';
const COOKIE_SECONDS = 600;

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  expires: number;
}

export function createSsoClient(settings: SsoSettings, cookieKey: Buffer) {
  let configuration: Promise<oidc.Configuration> | undefined;
  const discover = () => {
    configuration ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
        // http only for a provider on this machine (config.ts refuses any other).
        new URL(settings.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        configuration = undefined; // asked again next time
        throw error;
      });
    return configuration;
  };
  const sign = (value: string) => createHmac('sha256', cookieKey).update(value).digest('base64url');
  const seal = (pending: Pending) => {
    const body = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${body}.${sign(body)}`;
  };
  const open = (cookie: string | undefined, now: number): Pending => {
    const [body, mac] = (cookie ?? '').split('.');
    if (!body || !mac) throw new SsoError('expired');
    const expected = Buffer.from(sign(body));
    if (expected.length !== mac.length || !timingSafeEqual(expected, Buffer.from(mac))) throw new SsoError('expired');
    const pending = JSON.parse(Buffer.from(body, 'base64url').toString()) as Pending;
    if (pending.expires < now) throw new SsoError('expired');
    return pending;
  };

  return {
    cookieSeconds: COOKIE_SECONDS,
    /** Where to send the browser, and the cookie that must come back with it. */
    async start(now: number): Promise<{ url: string; cookie: string }> {
      const config = await discover();
      const pending: Pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        expires: now + COOKIE_SECONDS * 1000,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
        ...(settings.askAuthenticationMethods
          ? { claims: JSON.stringify({ id_token: { amr: null, auth_time: { essential: true } } }) }
          : {}),
      });
      return { url: url.href, cookie: seal(pending) };
    },
    /** The provider sent the browser back: the code is exchanged and the ID token checked. */
    async finish(callbackUrl: URL, cookie: string | undefined, now: number): Promise<SsoIdentity> {
      const pending = open(cookie, now);
      const config = await discover();
      let claims: oidc.IDToken | undefined;
      let accessToken: string;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
        accessToken = tokens.access_token;
      } catch {
        throw new SsoError('failed');
      }
      if (!claims) throw new SsoError('failed');
      let { email, email_verified: verified } = claims as { email?: unknown; email_verified?: unknown };
      if (typeof email !== 'string') {
        const info = await oidc.fetchUserInfo(config, accessToken, claims.sub).catch(() => null);
        email = info?.email;
        verified = info?.email_verified;
      }
      if (typeof email !== 'string' || verified !== true) throw new SsoError('unverified');
      return {
        email: email.trim().toLowerCase(),
        amr: Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [],
        authTime: typeof claims.auth_time === 'number' ? new Date(claims.auth_time * 1000) : null,
      };
    },
  };
}

export type SsoClient = ReturnType<typeof createSsoClient>;
