import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';

/** The methods that change something: the only ones a cross-site page could use against a session. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const CROSS_SITE = new AppError(
  403,
  'CROSS_SITE_REQUEST',
  'cross-site request',
  'Esta acción solo se puede hacer desde el back office: la solicitud vino de otro sitio.',
);

/** The origin the request was addressed to: the Host it was sent with (X-Forwarded-Host behind a trusted proxy). */
const addressedOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`.toLowerCase();

/**
 * Back-office writes come from the back office's own pages (issue 26), besides the SameSite=Strict
 * cookie. A browser says where a request comes from in Sec-Fetch-Site and Origin, and a page can
 * set neither: any Sec-Fetch-Site but same-origin (or none: typed by the user) is refused, and so
 * is an Origin that is neither PUBLIC_BASE_URL's nor the one the request was addressed to (a page
 * cannot choose the Host its browser sends). A request with neither header is not a browser's
 * cross-site request (curl, app.inject, an old browser's same-origin form). An onRequest hook of
 * the scope: it runs before the session is read or the body parsed, for every route registered in
 * the scope, the login included.
 */
export function refuseCrossSiteWrites(scope: FastifyInstance): void {
  const publicOrigin = scope.config.PUBLIC_BASE_URL ? new URL(scope.config.PUBLIC_BASE_URL).origin : null;
  scope.addHook('onRequest', (request, _reply, done) => {
    if (!WRITES.has(request.method)) return done();
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return done(CROSS_SITE);
    const origin = request.headers.origin?.toLowerCase();
    if (origin !== undefined && origin !== publicOrigin && origin !== addressedOrigin(request)) return done(CROSS_SITE);
    done();
  });
}
