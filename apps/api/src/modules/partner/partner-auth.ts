import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { findPartnerKeyByHash, partnerKeyHash, recordPartnerCall } from '../integrations/index.js';
import './decorations.js';

const MISSING = () =>
  new AppError(401, 'PARTNER_KEY_MISSING', 'no partner key', 'Falta la llave de la API (Authorization: Bearer …).');
const INVALID = () =>
  new AppError(
    401,
    'PARTNER_KEY_INVALID',
    'partner key unknown, revoked or expired',
    'La llave de la API no es válida, fue revocada o venció.',
  );

/** The bearer token of an Authorization header, or undefined. */
function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S{1,200})$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The partner API's gate, first of its scope's hooks: the calls per minute from the address (in
 * place of the global guard: a lender's systems call from one address), the key (a keyed hash
 * looked up; unknown, revoked or expired → 401), its calls per minute (each key its own count;
 * @fastify/rate-limit's store, per process like the global guard, decision 003), then the route's
 * scope (403).
 * Each call the key made is recorded once answered (partner_calls: key, route, application, status).
 */
export function registerPartnerAuth(scope: FastifyInstance): void {
  const app = scope;
  const perAddress = app.createRateLimit({
    max: app.config.PARTNER_IP_RATE_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `partner-ip:${request.ip}`,
    // Not the global guard's list (which leaves the partner API to these two).
    allowList: () => false,
  });
  const perKey = app.createRateLimit({
    max: app.config.PARTNER_RATE_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `partner-key:${request.partnerKey?.id}`,
    allowList: () => false,
  });
  const overRate = (reply: FastifyReply, seconds: number, readable: string) => {
    reply.header('retry-after', String(seconds));
    return new AppError(429, 'RATE_LIMITED', 'partner rate exceeded', readable, { retry_after_seconds: seconds });
  };

  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const fromAddress = await perAddress(request);
    if (!fromAddress.isAllowed && fromAddress.isExceeded)
      throw overRate(
        reply,
        fromAddress.ttlInSeconds,
        `Demasiadas llamadas desde esta dirección; intenta de nuevo en ${fromAddress.ttlInSeconds} s.`,
      );
    const token = bearer(request.headers.authorization);
    if (!token) throw MISSING();
    const key = await findPartnerKeyByHash(app.db, partnerKeyHash(app, token));
    const now = app.clock();
    if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) {
      request.log.warn({ keyId: key?.id }, 'partner call with an unusable key');
      throw INVALID();
    }
    request.partnerKey = key;
    const limit = await perKey(request);
    if (!limit.isAllowed && limit.isExceeded)
      throw overRate(
        reply,
        limit.ttlInSeconds,
        `Esta llave pasó de ${app.config.PARTNER_RATE_PER_MINUTE} llamadas por minuto; intenta de nuevo en ${limit.ttlInSeconds} s.`,
      );
    const needed = request.routeOptions.config.partnerScope;
    if (needed && !key.scopes.includes(needed))
      throw new AppError(
        403,
        'PARTNER_SCOPE_MISSING',
        'partner key without the scope',
        `Esta llave no tiene el permiso «${needed}».`,
      );
  });

  scope.addHook('onResponse', async (request, reply) => {
    const key = request.partnerKey;
    if (!key) return;
    const params = request.params as { applicationId?: string } | undefined;
    await recordPartnerCall(app.db, {
      keyId: key.id,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0]!.slice(0, 200),
      applicationId:
        params?.applicationId && /^[0-9a-f-]{36}$/i.test(params.applicationId) ? params.applicationId : null,
      statusCode: reply.statusCode,
      at: app.clock(),
    }).catch((error: unknown) => request.log.error({ err: error }, 'partner call not recorded'));
  });
}
