import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { API_PATH, PARTNER_API_PATH } from '../../paths.js';
import { permissionsPolicies } from './permissions-policy.js';
import type { InlineSources } from './spa.js';

/** A year, subdomains included (helmet's default value). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers (with the request id and the default no-store), closed CORS and the per-process
 * flood guard of the API (docs/decisions/003, 009).
 * `inline`: the hashes of the pages' own inline stylesheet and script (spa.ts); nothing else inline
 * is allowed.
 */
export async function registerSecurity(
  app: FastifyInstance,
  config: Config,
  inline: InlineSources = { style: [], script: [] },
): Promise<void> {
  // MetaMap's verification button: its script, and the flow it opens in a frame (IDENTITY_PROVIDER=metamap).
  const metamap = config.IDENTITY_PROVIDER === 'metamap' ? ['https://*.metamap.com', 'https://*.getmati.com'] : [];
  const csp = contentSecurityPolicy({
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", ...metamap],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // blob: the identity photos' previews, made in the page from the camera.
    'img-src': ["'self'", 'data:', 'blob:', ...metamap],
    'frame-src': metamap.length > 0 ? metamap : ["'none'"],
    // The advisor-welcome video: the built-in one is the app's own; a lender's may come from its own host.
    'media-src': [
      "'self'",
      ...(config.ADVISOR_VIDEO_URL && config.ADVISOR_VIDEO_URL !== 'none'
        ? [new URL(config.ADVISOR_VIDEO_URL).origin]
        : []),
    ],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...inline.script, ...metamap],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...inline.style],
    ...(config.NODE_ENV === 'production' ? { 'upgrade-insecure-requests': [] } : {}),
  });
  // Pages and files get the page's policy and the headers that only a document uses (helmet's
  // defaults). An API answer (JSON) is never a document: it gets the policy that allows nothing
  // (OWASP's for REST answers) and no more than it needs: on 3G every byte of ~40 requests a journey
  // counts (the page's policy alone is ~450 bytes). Computed once here: @fastify/helmet rebuilt them
  // per request.
  const permissions = permissionsPolicies(metamap);
  const apiAnswer = {
    'content-security-policy': API_POLICY,
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
  };
  const documentAnswer = {
    'content-security-policy': csp,
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  // Every answer's headers, in one callback hook: no promise per answer on the path every request takes.
  app.addHook('onSend', (request, reply, payload, done) => {
    const isApiAnswer = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
    reply.headers(isApiAnswer ? apiAnswer : documentAnswer);
    // The camera and the position only on the signing pages that use them (permissions-policy.ts).
    reply.header(
      'permissions-policy',
      isApiAnswer ? permissions.none : permissions.forPage(request.url.split('?')[0]!),
    );
    reply.header('x-request-id', request.id);
    // API answers carry tokens and personal data: never stored by a browser or proxy, unless the
    // route chose its own caching (catalogues, static files, the SPA's no-cache HTML).
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // HSTS only over https as the app sees it: TLS here, or x-forwarded-proto from a proxy with
    // TRUST_PROXY (the same test as the back office's Secure cookie). RFC 6797 §7.2 forbids it
    // on a plain-http answer.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
  // Closed (no CORS_ORIGINS): no plugin at all, so no answer carries an Access-Control-* header and a
  // browser keeps other sites out on its own.
  if (config.CORS_ORIGINS.length > 0) await app.register(cors, { origin: config.CORS_ORIGINS });
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // Page loads (the SPA's HTML, its assets, public files) are not counted: one carrier IP is
    // shared by thousands of phones, and a page load fetches many files (docs/decisions/009).
    // Judged by the matched route, not the raw URL, which /%61pi/… would disguise.
    // The partner API counts per address and per key itself (modules/partner/partner-auth.ts).
    allowList: (request) => {
      const route = request.routeOptions.url ?? '';
      return !API_PATH.test(route) || PARTNER_API_PATH.test(route);
    },
    // The limit's own headers only on a refusal (with Retry-After): not on every answer.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      code: 'RATE_LIMITED',
      message: `Demasiadas solicitudes; intenta de nuevo en ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
}

/** The policy of an API answer (JSON): nothing may load, nothing may frame it. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** A Content-Security-Policy header value from its directives. */
export function contentSecurityPolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}
