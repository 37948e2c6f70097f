import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { identityVerifications } from '../../db/schema.js';
import { AppError, errorResponseSchema } from '../../errors.js';
import { parseMetamapEvent, verifyMetamapSignature, type MetamapEvent } from '../../providers/identity/metamap.js';
import type { App } from '../../types.js';
import { bodyDigest, claimDelivery, deliverySeen, recordDelivery, ReplayedDelivery } from '../webhooks/index.js';
import { answerCheck, signerFromMetadata, startExternalCheck } from './signing.service.js';

const rawBodies = new WeakMap<FastifyRequest, Buffer>();

const outcomeResponse = z.object({ data: z.object({ outcome: z.string() }) });
const REPLAYED = { data: { outcome: 'replayed' } };

async function checkOf(app: App, verificationId: string): Promise<string | undefined> {
  const [check] = await app.db
    .select({ id: identityVerifications.id })
    .from(identityVerifications)
    .where(eq(identityVerifications.providerVerificationId, verificationId))
    .limit(1);
  return check?.id;
}

/**
 * What one delivery does: a start opens a check for the signer its metadata names; an answer moves
 * the signer. `within` runs in the transaction of whatever it changes (the delivery's record).
 */
async function handle(app: App, event: MetamapEvent | null, within: (tx: Tx) => Promise<void>): Promise<string> {
  if (!event?.verificationId) return 'ignored';
  let checkId = await checkOf(app, event.verificationId);
  let outcome = 'recorded';
  if (!checkId) {
    const signer = event.metadata ? await signerFromMetadata(app, event.metadata) : null;
    if (!signer) return 'unknown-signer';
    outcome = await startExternalCheck(
      app,
      signer,
      'metamap',
      event.verificationId,
      event.identityId,
      { event: event.eventName },
      within,
    );
    checkId = await checkOf(app, event.verificationId);
  }
  if (checkId && event.status) {
    outcome = await answerCheck(
      app,
      checkId,
      event.status,
      'provider:metamap',
      { event: event.eventName, flow_id: event.flowId },
      event.identityId,
      within,
    );
  }
  return outcome;
}

/**
 * MetaMap's webhook: the HMAC signature covers the raw body, so this plugin keeps the bytes as
 * received. MetaMap names no delivery id (its deliveries carry eventName, resource, flowId,
 * timestamp and the event's fields: https://docs.metamap.com/docs/webhooks), so a delivery is
 * known by the SHA-256 of the body it signed: a retry or a captured call sent again is the same
 * bytes (any other bytes fail the signature), is answered 200 and changes nothing (issue 26). A
 * re-sent event with new bytes (a new timestamp) is still idempotent on the verification's id.
 */
export async function metamapWebhookRoutes(app: App): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(new AppError(400, 'BAD_REQUEST', 'malformed json', 'La solicitud no es válida.'), undefined);
    }
  });
  app.post(
    '/v1/webhooks/identity/metamap',
    {
      config: { signedVendorBody: true },
      schema: {
        summary: 'Webhook de MetaMap (firmado con HMAC-SHA256 en x-signature)',
        body: z.unknown(),
        response: {
          200: outcomeResponse,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          413: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
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
        outcome = await handle(app, parseMetamapEvent(request.body), within);
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
