import { AppError } from '../../errors.js';
import type { App } from '../../types.js';

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
 * A vendor's signature covers the raw body: this plugin's routes keep the body as received
 * (`request.rawBody`) before parsing it, JSON (the simulators) or a form (Twilio). Both parsers are
 * the calling plugin's own; the rest of the API keeps the default ones.
 */
export function keepSignedBodies(app: App): void {
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
}
