import { messageReplyWebhookCall, messageStatusWebhookCall } from '@provee/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { keepSignedBodies } from '../webhooks/index.js';
import { recordDelivery } from './delivery.js';
import { receiveReply } from './opt-outs.js';

/**
 * The messaging provider's webhooks: delivery status (its status callbacks) and replies to our
 * senders. Both signed by the provider; a call not signed so is refused (401) and changes nothing.
 */
export async function messageWebhookRoutes(app: App): Promise<void> {
  keepSignedBodies(app);

  const checked = (
    request: Pick<FastifyRequest, 'rawBody' | 'headers' | 'url' | 'log'> & { params: { provider: string } },
  ) => {
    if (request.params.provider !== app.messageWebhooks.name)
      throw new AppError(404, 'NOT_FOUND', 'unknown provider', 'No encontramos lo que buscas.');
    if (!app.messageWebhooks.verifySignature(request.rawBody ?? '', request.headers, request.url)) {
      request.log.warn({ provider: request.params.provider }, 'message webhook with a missing or bad signature');
      throw new AppError(401, 'INVALID_SIGNATURE', 'invalid webhook signature', 'Firma inválida.');
    }
  };
  const answer = (reply: FastifyReply, recorded: boolean) => {
    const { acknowledgement } = app.messageWebhooks;
    if (acknowledgement) return reply.type(acknowledgement.contentType).send(acknowledgement.body);
    return reply.send({ data: { recorded } });
  };

  register(
    app,
    messageStatusWebhookCall,
    {
      // Signed by the provider: its fields are its own (checked by the signature, not the input
      // guard), and the provider's shared addresses are not held to one person's request rate.
      config: { signedVendorBody: true, rateLimit: false },
      summary: 'Estado de entrega de un mensaje (callback del proveedor, firmado)',
    },
    async (request, reply) => {
      checked(request);
      const report = app.messageWebhooks.parseStatus(request.body);
      const outcome = report ? await recordDelivery(app, app.messageWebhooks.name, report, request.query.m) : null;
      return answer(reply, outcome !== null);
    },
  );

  register(
    app,
    messageReplyWebhookCall,
    {
      // Signed by the provider (see above); only "BAJA" is acted on, nothing else is stored.
      config: { signedVendorBody: true, rateLimit: false },
      summary: 'Respuesta a un mensaje (BAJA detiene los recordatorios; firmada)',
    },
    async (request, reply) => {
      checked(request);
      const parsed = app.messageWebhooks.parseReply(request.body);
      return answer(reply, parsed ? await receiveReply(app, parsed) : false);
    },
  );
}
