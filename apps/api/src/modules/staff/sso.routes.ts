import { z } from 'zod';
import type { App } from '../../types.js';
import { openStaffSession } from './session.js';
import { ssoLogin } from './sso-login.js';
import { createSsoClient, SSO_COOKIE, SsoError } from './sso.js';
import { BACKOFFICE_API_PREFIX } from './staff-auth.js';
import { staffDepsOf } from './staff-deps.js';

const CALLBACK = '/sso/callback';

/**
 * Single sign-on (when OIDC_ISSUER is set): /sso/start sends the browser to the provider, which sends
 * it back to /sso/callback; a known, active account then has a session in the stage its second factor
 * calls for, and the browser goes to the back office (or to its login with the reason it failed).
 */
export async function ssoRoutes(app: App): Promise<void> {
  const { config } = app;
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.PUBLIC_BASE_URL) return;
  const deps = { ...staffDepsOf(app), acceptProviderSecondFactor: config.OIDC_ACCEPT_IDP_MFA };
  const client = createSsoClient(
    {
      issuer: config.OIDC_ISSUER,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      scopes: config.OIDC_SCOPES,
      redirectUri: `${config.PUBLIC_BASE_URL}${BACKOFFICE_API_PREFIX}${CALLBACK}`,
      askAuthenticationMethods: config.OIDC_ACCEPT_IDP_MFA,
    },
    app.secrets.key('staff-sso'),
  );
  const cookieOptions = {
    path: `${BACKOFFICE_API_PREFIX}/sso`,
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation from its site.
    sameSite: 'lax' as const,
    secure: config.PUBLIC_BASE_URL.startsWith('https:'),
  };
  const toLogin = (reason: string) => `/backoffice/login?sso=${reason}`;

  app.get('/sso/start', { schema: { hide: true } }, async (request, reply) => {
    try {
      const { url, cookie } = await client.start(app.clock().getTime());
      reply.setCookie(SSO_COOKIE, cookie, { ...cookieOptions, maxAge: client.cookieSeconds });
      return reply.redirect(url, 303);
    } catch (error) {
      request.log.warn({ err: error }, 'single sign-on: the provider could not be reached');
      return reply.redirect(toLogin('unavailable'), 303);
    }
  });

  app.get(
    CALLBACK,
    { schema: { hide: true, querystring: z.record(z.string(), z.string().max(4096)) } },
    async (request, reply) => {
      reply.clearCookie(SSO_COOKIE, cookieOptions);
      let identity;
      try {
        identity = await client.finish(
          new URL(request.url, config.PUBLIC_BASE_URL),
          request.cookies[SSO_COOKIE],
          app.clock().getTime(),
        );
      } catch (error) {
        const reason = error instanceof SsoError ? error.reason : 'failed';
        request.log.warn({ reason }, 'single sign-on refused');
        return reply.redirect(toLogin(reason), 303);
      }
      const accepted = await ssoLogin(deps, identity, { ip: request.ip });
      if (!accepted) {
        request.log.warn('single sign-on: no active account for this e-mail');
        return reply.redirect(toLogin('unknown'), 303);
      }
      await openStaffSession(deps, request, accepted.member, 'sso', accepted.providerFactorAt);
      return reply.redirect('/backoffice', 303);
    },
  );
}
