import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider for tests (panva's oidc-provider, the certified implementation):
 * discovery, JWKS, authorization code with PKCE, signed ID tokens, userinfo. Its only shortcut is the
 * interaction: instead of a login form it signs in whoever the test named with `signInAs` (and the
 * authentication methods it says), the way a lender's identity provider would after its own login.
 */
export interface TestIdentity {
  email: string;
  emailVerified?: boolean;
  name?: string;
  /** RFC 8176 methods the provider reports (e.g. ['pwd', 'otp']). */
  amr?: string[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization request signs in. */
  signInAs(identity: TestIdentity): void;
  close(): Promise<void>;
}

export async function startOidcProvider(options: { redirectUris: string[]; port?: number }): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'provee-backoffice';
  const clientSecret = 'secreto-del-cliente-de-prueba';
  const accounts = new Map<string, TestIdentity>();
  let next: TestIdentity | undefined;

  // Its own signing key and lifetimes (without them oidc-provider warns that it uses quick-start ones).
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...signingKey, kid: 'provee-test', use: 'sig', alg: 'RS256' }] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    // The ID token carries the scopes' claims (e-mail) and amr, as most providers do.
    conformIdTokenClaims: false,
    claims: { amr: null, auth_time: null, openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['clave-de-cookies-de-prueba'] },
    features: { devInteractions: { enabled: false }, claimsParameter: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const identity = accounts.get(sub);
      return identity
        ? {
            accountId: sub,
            claims: () => ({
              sub,
              email: identity.email,
              email_verified: identity.emailVerified ?? true,
              name: identity.name ?? identity.email,
            }),
          }
        : undefined;
    },
  });
  const callback = provider.callback();

  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        if (!next) throw new Error('the test provider was not told whom to sign in');
        const sub = `persona-${accounts.size + 1}`;
        accounts.set(sub, next);
        const amr = next.amr ?? ['pwd'];
        next = undefined;
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: sub, amr } },
          { mergeWithLastSubmission: false },
        );
      }
      const grant = new provider.Grant({
        accountId: details.session!.accountId,
        clientId: details.params.client_id as string,
      });
      grant.addOIDCScope(String(details.params.scope));
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (identity) => {
      next = identity;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
