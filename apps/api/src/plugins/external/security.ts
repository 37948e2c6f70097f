import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { API_PATH } from '../../paths.js';

/** A year, subdomains included (helmet's default value). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Security headers, closed CORS and the per-process flood guard of the API (docs/decisions/003, 009). */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  // MetaMap's verification button: its script, and the flow it opens in a frame (IDENTITY_PROVIDER=metamap).
  const metamap = config.IDENTITY_PROVIDER === 'metamap' ? ['https://*.metamap.com', 'https://*.getmati.com'] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'", ...metamap],
        fontSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // blob: the identity photos' previews, made in the page from the camera.
        imgSrc: ["'self'", 'data:', 'blob:', ...metamap],
        frameSrc: metamap.length > 0 ? metamap : ["'none'"],
        // The advisor-welcome video may come from its own host; nothing else may.
        mediaSrc: ["'self'", ...(config.ADVISOR_VIDEO_URL ? [new URL(config.ADVISOR_VIDEO_URL).origin] : [])],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", ...metamap],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        ...(config.NODE_ENV === 'production' ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only over https (below): RFC 6797 §7.2 forbids it on a plain-http answer.
    strictTransportSecurity: false,
  });
  // Over https as the app sees it: TLS here, or x-forwarded-proto from a proxy with TRUST_PROXY=true
  // (the same test as the back office's Secure cookie).
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  await app.register(cors, { origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false });
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // Page loads (the SPA's HTML, its assets, public files) are not counted: one carrier IP is
    // shared by thousands of phones, and a page load fetches many files (docs/decisions/009).
    // Judged by the matched route, not the raw URL, which /%61pi/… would disguise.
    allowList: (request) => !API_PATH.test(request.routeOptions.url ?? ''),
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      code: 'RATE_LIMITED',
      message: `Demasiadas solicitudes; intenta de nuevo en ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
}
