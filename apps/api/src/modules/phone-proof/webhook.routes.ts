import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { receiveInboundMessage } from './reverse-otp.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/**
 * Inbound messages from the reverse-OTP vendor. The signature covers the raw body, so this
 * plugin keeps the body as received before parsing it.
 */
export async function reverseOtpWebhookRoutes(app: App): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new AppError(400, 'BAD_REQUEST', 'malformed json', 'La solicitud no es válida.'), undefined);
    }
  });

  app.post(
    '/v1/webhooks/reverse-otp/:provider',
    {
      // What a person texted may span lines; only the nonce in it is used, nothing is stored.
      config: { multilineFields: ['data.text'] },
      schema: {
        summary: 'Webhook del proveedor de OTP inverso (firmado con HMAC)',
        params: z.object({ provider: z.string().max(40) }),
        body: z.unknown(),
        response: { 200: z.object({ data: z.object({ matched: z.boolean() }) }) },
      },
    },
    async (request) => {
      if (request.params.provider !== app.reverseOtp.name) {
        throw new AppError(404, 'NOT_FOUND', 'unknown provider', 'No encontramos lo que buscas.');
      }
      if (!app.reverseOtp.verifySignature(request.rawBody ?? '', request.headers)) {
        request.log.warn({ provider: request.params.provider }, 'reverse-otp webhook with a missing or bad signature');
        throw new AppError(401, 'INVALID_SIGNATURE', 'invalid webhook signature', 'Firma inválida.');
      }
      const message = app.reverseOtp.parseInbound(request.body);
      if (!message) return { data: { matched: false } };
      const result = await receiveInboundMessage(app, message);
      return { data: { matched: result.matched } };
    },
  );
}
