import type { FastifyLoggerOptions, RawServerDefault } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

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

/** Header names whose values never reach the logs, wherever a headers object is logged. */
const SECRET_HEADERS = ['authorization', 'cookie', 'x-api-key', 'set-cookie'];

const CENSORED = new Set([...SECRET_KEYS, ...SECRET_HEADERS]);
const CENSOR = '[redactado]';
/** How deep a logged object is searched: `{ body: { user: { phone } } }` is three levels. */
const SCRUB_DEPTH = 3;

function isPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null || Array.isArray(value);
}

/**
 * A logged object with the values of secret keys (and headers) replaced, down to SCRUB_DEPTH
 * levels of plain objects and arrays; copies only what it changes. It replaces pino's `redact`
 * with wildcard paths, which cost ~30 µs on each of the two lines every request writes (a quarter
 * of a bare request's time on this machine), for the same protection: request lines hold none of
 * these keys and pass through untouched.
 */
export function scrub<T>(value: T, depth = 0): T {
  if (!isPlain(value) || depth >= SCRUB_DEPTH) return value;
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    const next = CENSORED.has(key.toLowerCase()) && child !== undefined ? CENSOR : scrub(child, depth + 1);
    if (next !== child) {
      copy ??= Array.isArray(value) ? [...value] : { ...value };
      (copy as Record<string, unknown>)[key] = next;
    }
  }
  return (copy ?? value) as T;
}

/**
 * Query parameters of links that carry a credential (signing, invitation, a reverse-OTP session, the
 * single-sign-on callback's code and state) or a person's name.
 */
const SECRET_QUERY =
  /([?&](?:token|sessionUuid|code|state|titular_full_name|collateral_full_name|shopkeeper_name|collateral_name|q|utm_source|utm_campaign)=)[^&#]*/g;

/**
 * Long digit runs in a URL are phone numbers, tax ids or codes: /home/8095551234 → /home/[…]; a
 * link's token, the names in its query and the back office's search text are left out too.
 */
export function maskUrl(url: string): string {
  // A reminder's resume link carries its token in the path (/r/<token>, issue 34).
  const masked = url.startsWith('/r/') ? url.replace(RESUME_LINK, '/r/[…]') : url;
  // Most URLs have neither (every request's log line passes here).
  if (!masked.includes('=') && !DIGIT_RUN.test(masked)) return masked;
  return masked.replace(SECRET_QUERY, '$1[…]').replace(/\d{4,}/g, '[…]');
}
const RESUME_LINK = /^\/r\/[^/?#]+/;
const DIGIT_RUN = /\d{4}/;

/** Fields by which a database error (Drizzle, postgres.js, PGlite) shows itself; they carry the SQL and its parameters. */
const DATABASE_ERROR_FIELDS = ['query', 'params', 'parameters', 'severity', 'detail', 'where'];

function isDatabaseError(error: Error): boolean {
  return error.name === 'DrizzleQueryError' || DATABASE_ERROR_FIELDS.some((field) => field in error);
}

/**
 * What a log line says about an error: its type, code, status, a message and the stack frames.
 * A database error's message, query, parameters and detail hold the values it was given (phone
 * numbers, names), so none of them is written; other messages have long digit runs masked.
 */
export function serializeError(
  error: unknown,
  depth = 0,
): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(error instanceof Error)) return { type: typeof error, message: 'not an Error (value left out)', stack: '' };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  const database = isDatabaseError(error);
  return {
    type: error.constructor?.name ?? error.name,
    // Not `code`: the redaction of request fields named code (SMS codes) would hide it.
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    message: database ? 'database error (message, query and parameters left out)' : maskUrl(error.message),
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at [^\s]/.test(line))
      .map(maskUrl)
      .join('\n'),
    ...(error.cause !== undefined && depth < 3 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

export function loggerOptions(level: string): FastifyLoggerOptions<RawServerDefault> & LoggerOptions {
  return {
    level,
    formatters: { log: (object) => scrub(object) },
    serializers: {
      err: (error) => serializeError(error),
      error: (error) => serializeError(error),
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

/** Where log lines go: anything with pino's `write`. */
interface LineSink {
  write(text: string): unknown;
}

/**
 * A log destination that writes once per turn of the event loop: the lines logged during a turn
 * (under load, one per request answered in it, often several) go to `sink` in one write, when the
 * turn's callbacks are done (setImmediate), instead of one write each. A write to standard output
 * cost ~3 µs of a request's CPU on the 2-core server, a quarter of bare Fastify's whole request
 * (docs/PERFORMANCE.md, issue 35). No line waits past the turn that logged it; `flush()` writes
 * what is pending at once, and the process's `exit` (the graceful stop and a fatal error end with
 * process.exit) flushes it too: only a process killed outright loses the lines of its last turn.
 */
export function linesPerTurn(sink: LineSink): DestinationStream & { flush(): void } {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink.write(text);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

let stdout: ReturnType<typeof linesPerTurn> | undefined;

/**
 * The server's standard output as its log destination, one per process: pino's synchronous
 * destination (it retries a full pipe), fed once per turn of the event loop (linesPerTurn).
 */
export function stdoutPerTurn(): ReturnType<typeof linesPerTurn> {
  stdout ??= linesPerTurn(pino.destination({ dest: 1, sync: true }));
  return stdout;
}
