import { reverseOtpWebhookCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { bodyDigest } from '../webhooks/index.js';
import { receiveInboundMessage } from './reverse-otp.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** A form body as an object; a name sent more than once keeps all its values. */
function parseForm(raw: string): Record<string, string | string[]> {
  // Built without a prototype so a field named __proto__ stays a field, then copied to a plain object.
  const form: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(raw)) {
    const previous = form[name];
    form[name] = previous === undefined ? value : [previous, value].flat();
  }
  return { ...form };
}

/**
 * Inbound messages from the reverse-OTP vendor. The signature covers the raw body, so this
 * plugin keeps the body as received before parsing it: JSON (simulator) or a form (Twilio).
 * Both parsers are this plugin's own; the rest of the API keeps the default ones.
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
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    done(null, parseForm(body as string));
  });

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
