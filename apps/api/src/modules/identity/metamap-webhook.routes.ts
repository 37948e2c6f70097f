import { metamapWebhookCall } from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { register } from '../../contract/register.js';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { parseMetamapEvent, verifyMetamapSignature } from '../../providers/identity/metamap.js';
import type { App } from '../../types.js';
import { bodyDigest, claimDelivery, deliverySeen, recordDelivery, ReplayedDelivery } from '../webhooks/index.js';
import { identityDeps } from './deps.js';
import { handleMetamapEvent } from './external-check.js';

const rawBodies = new WeakMap<FastifyRequest, Buffer>();

const REPLAYED = { data: { outcome: 'replayed' } };

/**
 * MetaMap's webhook: the HMAC signature covers the raw body, so this plugin keeps the bytes as
 * received. MetaMap names no delivery id (its deliveries carry eventName, resource, flowId,
 * timestamp and the event's fields: https://docs.metamap.com/docs/webhooks), so a delivery is
 * known by the SHA-256 of the body it signed: a retry or a captured call sent again is the same
 * bytes (any other bytes fail the signature), is answered 200 and changes nothing (issue 26). A
 * re-sent event with new bytes (a new timestamp) is still idempotent on the verification's id.
 */
export async function metamapWebhookRoutes(app: App): Promise<void> {
  const deps = identityDeps(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(new AppError(400, 'BAD_REQUEST', 'malformed json', 'La solicitud no es válida.'), undefined);
    }
  });
  register(
    app,
    metamapWebhookCall,
    { config: { signedVendorBody: true }, summary: 'Webhook de MetaMap (firmado con HMAC-SHA256 en x-signature)' },
    async (request) => {
      const secret = app.config.METAMAP_WEBHOOK_SECRET;
      if (app.config.IDENTITY_PROVIDER !== 'metamap' || !secret)
        throw new AppError(404, 'NOT_FOUND', 'not found', 'No encontramos lo que buscas.');
      const raw = rawBodies.get(request) ?? Buffer.alloc(0);
      const signature = request.headers['x-signature'];
      if (!verifyMetamapSignature(raw, typeof signature === 'string' ? signature : undefined, secret))
        throw new AppError(401, 'INVALID_SIGNATURE', 'invalid signature', 'La firma del mensaje no es válida.');
      const deliveryId = bodyDigest(raw);
      if (await deliverySeen(app.db, 'metamap', deliveryId)) return REPLAYED;
      const now = app.clock();
      let claimed = false;
      const within = async (tx: Tx) => {
        await claimDelivery(tx, 'metamap', deliveryId, now);
        claimed = true;
      };
      let outcome: string;
      try {
        outcome = await handleMetamapEvent(deps, parseMetamapEvent(request.body), within);
      } catch (error) {
        // The same delivery, processed by another request a moment before: this one changed nothing.
        if (error instanceof ReplayedDelivery) return REPLAYED;
        throw error;
      }
      // Nothing moved (not a decision, an unknown signer, an answer already recorded): recorded alone.
      if (!claimed && !(await recordDelivery(app.db, 'metamap', deliveryId, now))) return REPLAYED;
      return { data: { outcome } };
    },
  );
}
