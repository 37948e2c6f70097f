import type { FastifyLoggerOptions, RawServerDefault } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Body and query keys whose values never reach the logs (SPEC data a regulated lender protects). */
const SECRET_KEYS = [
  'phone_number',
  'new_phone_number',
  'phone',
  'to',
  'from',
  'tax_payer_id',
  'code',
  'nip',
  'pin',
  'password',
  'access_token',
  'token',
  'signature',
  'dob',
];

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

/** Long digit runs in a URL are phone numbers, tax ids or codes: /home/8095551234 → /home/[…]. */
export function maskUrl(url: string): string {
  return url.replace(/\d{4,}/g, '[…]');
}

export function loggerOptions(level: string): FastifyLoggerOptions<RawServerDefault> & LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redactado]' },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: maskUrl(request.url),
          remoteAddress: request.ip,
          userAgent: request.headers['user-agent'],
        };
      },
    },
  };
}
