import { reverseOtpWebhookCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { bodyDigest, keepSignedBodies } from '../webhooks/index.js';
import { receiveInboundMessage } from './reverse-otp.service.js';

/**
 * Inbound messages from the reverse-OTP vendor. The signature covers the raw body, so this
 * plugin keeps the body as received before parsing it (modules/webhooks' keepSignedBodies).
 */
export async function reverseOtpWebhookRoutes(app: App): Promise<void> {
  keepSignedBodies(app);

  register(
    app,
    reverseOtpWebhookCall,
    {
      // What a person texted may span lines; only the nonce in it is used, nothing is stored.
      config: { multilineFields: ['data.text', 'Body'] },
      summary: 'Webhook del proveedor de OTP inverso (firmado con HMAC)',
    },
    async (request, reply) => {
      if (request.params.provider !== app.reverseOtp.name) {
        throw new AppError(404, 'NOT_FOUND', 'unknown provider', 'No encontramos lo que buscas.');
      }
      if (!app.reverseOtp.verifySignature(request.rawBody ?? '', request.headers, request.url)) {
        request.log.warn({ provider: request.params.provider }, 'reverse-otp webhook with a missing or bad signature');
        throw new AppError(401, 'INVALID_SIGNATURE', 'invalid webhook signature', 'Firma inválida.');
      }
      const message = app.reverseOtp.parseInbound(request.body);
      // By the vendor's message id, or the signed body's digest: a replay is answered alike and changes nothing.
      const received = message
        ? await receiveInboundMessage(app, message, message.id ?? bodyDigest(request.rawBody ?? ''))
        : null;
      if (received?.replayed) request.log.info({ provider: request.params.provider }, 'reverse-otp delivery replayed');
      const matched = received?.matched ?? false;
      const { acknowledgement } = app.reverseOtp;
      if (acknowledgement) return reply.type(acknowledgement.contentType).send(acknowledgement.body);
      return reply.send({ data: { matched } });
    },
  );
}
