import { UNSUPPORTED_CHARACTERS_MESSAGE } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { invalidFields } from './errors.js';

/** C0 controls (NUL…US), DEL and C1 controls: nothing a person types, and NUL breaks PostgreSQL text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same but tab and line breaks, for the free-text fields a route names in `multilineFields`. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Half of a surrogate pair without the other half (a JSON "\ud800" escape): not text anyone types,
 * and PostgreSQL refuses its escape in jsonb (an audit payload holding it failed with a 500).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The message the registration screens already show for emoji and invisible characters. */
export const CONTROL_CHARACTER_MESSAGE = UNSUPPORTED_CHARACTERS_MESSAGE;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Body fields (dotted paths) that may hold tab and line breaks, e.g. an error message. */
    multilineFields?: string[];
    /**
     * A vendor's body, authenticated by its signature and never stored as text (a webhook): its
     * strings (OCR'd names, addresses) may hold line breaks without losing the delivery.
     */
    signedVendorBody?: boolean;
  }
}

/** Every string (or key) in a parsed input holding a control character, as dotted paths. */
export function findControlCharacters(input: unknown, multiline: readonly string[] = []): string[] {
  const found: string[] = [];
  // Iterative: a deeply nested body must not overflow the stack.
  const pending: [unknown, string][] = [[input, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if ((multiline.includes(path) ? CONTROL_BUT_LINES : CONTROL).test(value) || LONE_SURROGATE.test(value))
        found.push(path);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const childPath = path ? `${path}.${key}` : key;
        if (CONTROL.test(key) || LONE_SURROGATE.test(key)) found.push(childPath);
        else pending.push([child, childPath]);
      }
    }
  }
  return found.reverse();
}

/**
 * Every route refuses control characters (and lone surrogates) in its body, query and path
 * parameters with the 400 envelope naming the field, before its own schema runs (one rule instead
 * of one per field).
 */
export function registerInputGuard(app: FastifyInstance): void {
  // A callback hook: no promise per request on the path every request takes.
  app.addHook('preValidation', (request, _reply, done) => {
    const { multilineFields: multiline = [], signedVendorBody } = request.routeOptions.config;
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', signedVendorBody ? undefined : request.body],
    ] as const) {
      if (isEmpty(value)) continue;
      const fields = findControlCharacters(value, part === 'body' ? multiline : []);
      if (fields.length > 0) {
        done(invalidFields(Object.fromEntries(fields.map((field) => [field, CONTROL_CHARACTER_MESSAGE])), part));
        return;
      }
    }
    done();
  });
}

/** Nothing to look at: no body, or no parameters (most GETs). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const _key in value) return false;
  return true;
}

/** An integer a PostgreSQL `integer` column can hold (the contract's helper). */
export { int32 } from '@provee/domain';
