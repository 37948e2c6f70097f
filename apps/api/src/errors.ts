import { GENERIC_ERROR_MESSAGE, VALIDATION_ERROR_MESSAGE, type ErrorEnvelope, type FieldErrors } from '@provee/domain';
import { STATUS_CODES as HTTP_STATUS_TEXT } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * A refusal the API means to give: the status and code are part of the contract, the
 * readable_message is Spanish text the user sees as it is.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly readableMessage: string = message,
    /** Extra envelope fields, e.g. retry_after_seconds on 429. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * 400 with the field messages the screens show under each field. A screen with no field to mark
 * (the signature pad, the camera) shows the readable message alone: `spelledOut` makes it the
 * field messages themselves instead of 'Revisa los datos marcados…'.
 */
export function invalidFields(errors: FieldErrors, prefix = 'body', spelledOut = false): AppError {
  const readable = spelledOut ? Object.values(errors).join(' ') : VALIDATION_ERROR_MESSAGE;
  return new AppError(400, 'VALIDATION_ERROR', 'invalid fields', readable, {
    issues: Object.entries(errors).map(([field, message]) => ({ field: `${prefix}.${field}`, message })),
  });
}

/** 429 with how long to wait (`retry_after_seconds`, at least 1) and the Spanish sentence. */
export function tooMany(
  code: string,
  retryAfterSeconds: number,
  readable: string,
  extra: Record<string, unknown> = {},
): AppError {
  return new AppError(429, code, 'too many requests', readable, {
    retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)),
    ...extra,
  });
}

export function assertNoErrors(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
}

/** A refusal of the credit policy (SPEC §8: the app shows /rejected). */
export function notEligible(
  code: string,
  status: 412 | 422 = 422,
  readableMessage = 'Por ahora tu negocio no cumple con los requisitos para el crédito.',
): AppError {
  return new AppError(status, code, 'not eligible', readableMessage);
}

/** Response schema of every error status a route documents (the contract's: `refusals(…)` in a call value). */
export { errorResponseSchema } from '@provee/domain';

export function envelope(code: string, message: string, readableMessage = message): ErrorEnvelope {
  return { code, message, readable_message: readableMessage };
}

const STATUS_CODES: Record<number, [code: string, message: string]> = {
  400: ['BAD_REQUEST', 'La solicitud no es válida.'],
  401: ['UNAUTHORIZED', 'No tienes permiso para esta operación.'],
  403: ['FORBIDDEN', 'No tienes permiso para esta operación.'],
  404: ['NOT_FOUND', 'No encontramos lo que buscas.'],
  405: ['METHOD_NOT_ALLOWED', 'Operación no permitida.'],
  408: ['REQUEST_TIMEOUT', 'La solicitud tardó demasiado. Intenta de nuevo.'],
  413: ['PAYLOAD_TOO_LARGE', 'La información enviada es demasiado grande.'],
  414: ['URI_TOO_LONG', 'La dirección de la solicitud es demasiado larga.'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Formato de la solicitud no soportado.'],
  429: ['RATE_LIMITED', 'Hiciste demasiados intentos. Espera un momento e intenta de nuevo.'],
  431: ['HEADERS_TOO_LARGE', 'Los encabezados de la solicitud son demasiado grandes.'],
};

function statusEnvelope(status: number): ErrorEnvelope {
  const [code, message] = STATUS_CODES[status] ?? ['BAD_REQUEST', 'La solicitud no es válida.'];
  return envelope(code, message);
}

/**
 * Fastify's refusals before a route is found (bad URL encoding, a path parameter over
 * maxParamLength): the same envelope as every other error (Fastify's `frameworkErrors` option).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  request.log.info({ err: error }, 'request refused');
  void reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-request-id', request.id)
    .send(statusEnvelope(status));
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers over the limit → 431,
 * malformed request line → 400, timeout → 408), written straight on the socket as the envelope.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(statusEnvelope(status));
  const head = [
    `HTTP/1.1 ${status} ${HTTP_STATUS_TEXT[status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** Node socket errors of a connection to the database server that is refused, dropped or unreachable. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // postgres.js: the connection closed under a query, was ended or destroyed, or never opened in time.
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * SQLSTATEs of a database that is not there for now: connection exceptions (class 08), the server
 * shutting down or restarting (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now)
 * and no free connection slot (53300).
 */
const UNAVAILABLE_SQLSTATE = /^(08\w{3}|57P0[123]|53300)$/;

/**
 * Whether an error means the database cannot be reached right now (restart, failover, network),
 * not that a query was wrong. Drizzle wraps the driver's error in `cause`; a refused connection to
 * several addresses comes as an AggregateError.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}

/** 503 while the database is unreachable: the request can be repeated once it is back. */
export function databaseUnavailable(): AppError {
  return new AppError(
    503,
    'DB_UNAVAILABLE',
    'Base de datos no disponible.',
    'El servicio no está disponible por el momento. Intenta de nuevo en unos minutos.',
  );
}

/** Seconds a client is told to wait (Retry-After) when the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (typeof error.extra.retry_after_seconds === 'number')
        reply.header('retry-after', error.extra.retry_after_seconds);
      return reply
        .status(error.statusCode)
        .send({ ...envelope(error.code, error.message, error.readableMessage), ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        field: [error.validationContext, fieldName(issue.instancePath.split('/').filter(Boolean))]
          .filter(Boolean)
          .join('.'),
        message: issue.message,
      }));
      return reply.status(400).send({ ...envelope('VALIDATION_ERROR', VALIDATION_ERROR_MESSAGE), issues });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send(envelope('INTERNAL_ERROR', GENERIC_ERROR_MESSAGE));
    }
    if (isDatabaseUnavailable(error)) {
      // Not the request's fault and not a bug: the client may repeat it once the database is back.
      request.log.error({ err: error }, 'database unavailable');
      const unavailable = databaseUnavailable();
      return reply
        .status(503)
        .header('retry-after', DATABASE_RETRY_AFTER_SECONDS)
        .send(envelope(unavailable.code, unavailable.message, unavailable.readableMessage));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (malformed JSON, body too large, rate limit…) keep their status.
      request.log.info({ err: error }, 'request refused');
      return reply.status(status).send(statusEnvelope(status));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(envelope('INTERNAL_ERROR', GENERIC_ERROR_MESSAGE));
  });
}

export function notFoundEnvelope(): ErrorEnvelope {
  return statusEnvelope(404);
}
