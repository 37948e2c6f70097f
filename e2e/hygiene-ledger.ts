import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, APIResponse, Browser, BrowserContext, Request, Response } from '@playwright/test';

/**
 * Issue 13, suite 7 (hygiene): every secret the e2e run types, sends or receives, appended to
 * test-results/hygiene/secrets.jsonl, so that scripts/reliability/hygiene.mjs can look for each one
 * by value in the servers' logs and database dumps. Append-only JSONL: the workers are separate
 * processes, and each line is one small write.
 */
export type SecretKind =
  | 'taxId'
  | 'birthDate'
  | 'smsCode'
  | 'pin'
  | 'password'
  | 'staffPassword'
  | 'bearerToken'
  | 'linkToken'
  | 'sessionCookie'
  | 'proofSession'
  | 'totpSecret'
  | 'recoveryCode'
  | 'webhookSecret'
  | 'partnerKey'
  /** A person's values erased on their request (issue 31): gone from the database, never in the logs. */
  | 'erasedPerson';

/** Where the suite's files go; the global setup sets it for the workers. */
export function hygieneDir(): string {
  return process.env.HYGIENE_DIR ?? join(import.meta.dirname, '../test-results/hygiene');
}

const recorded = new Set<string>();

/** One secret, once per worker (the file may still hold it twice: the scan deduplicates). */
export function recordSecret(kind: SecretKind, value: string, source: string): void {
  const key = `${kind}\u0000${value}`;
  if (!value || recorded.has(key)) return;
  recorded.add(key);
  const dir = hygieneDir();
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, 'secrets.jsonl'), `${JSON.stringify({ kind, value, source })}\n`);
}

const TOTP_SECRET = /^[A-Z2-7]{16,}$/;
const RECOVERY_CODE = /^[0-9A-Z]{5}-[0-9A-Z]{5}$/;
const TAX_ID = /^(?:\d{11}|\d{3}-\d{7}-\d|[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Fields of the API's bodies (requests and answers) that hold a secret, by name. */
function kindOf(key: string, value: string): SecretKind | null {
  switch (key) {
    case 'tax_payer_id':
    case 'tax_id':
      // An advisor's answer shows a masked tax id: not a secret of its own.
      return TAX_ID.test(value) ? 'taxId' : null;
    case 'dob':
      return ISO_DATE.test(value) ? 'birthDate' : null;
    case 'code':
      // Error envelopes have a `code` too (RATE_LIMITED…); a staff member types a recovery code there too.
      if (RECOVERY_CODE.test(value.trim().toUpperCase())) return 'recoveryCode';
      return /^\d{6}$/.test(value) ? 'smsCode' : null;
    case 'secret':
      // A webhook endpoint's signing secret (shown once), or a staff member's authenticator app.
      if (value.startsWith('whsec_')) return 'webhookSecret';
      return TOTP_SECRET.test(value) ? 'totpSecret' : null;
    case 'nip':
    case 'default_nip':
      return /^\d{4}$/.test(value) ? 'pin' : null;
    case 'password':
    case 'password_confirmation':
      return 'password';
    case 'access_token':
      return 'bearerToken';
    case 'token':
      // A partner API key (shown once to the admin who made it), or a signing or invitation link's.
      return value.startsWith('pvk_') ? 'partnerKey' : 'linkToken';
    case 'session_id':
      // A reverse-OTP session's key: exchanged for a phone token once the message arrived.
      return 'proofSession';
    default:
      return null;
  }
}

/** Walks a JSON body and records every field named like a secret. */
export function recordFromJson(body: unknown, source: string, depth = 0, notSecret: readonly string[] = []): void {
  if (depth > 8 || body === null || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'recovery_codes' && Array.isArray(value)) {
      for (const code of value) if (typeof code === 'string') recordSecret('recoveryCode', code, source);
    } else if (typeof value === 'string') {
      const kind = notSecret.includes(key) ? null : kindOf(key, value);
      if (kind) recordSecret(kind, value, source);
    } else recordFromJson(value, source, depth + 1, notSecret);
  }
}

/** An `authorization` header, a URL's `token=` and `sessionUuid=` parameters, a staff session cookie. */
function recordFromHeadersAndUrl(url: string, headers: Record<string, string>, source: string): void {
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const bearer = authorization?.replace(/^Bearer\s+/i, '').trim();
  if (bearer && bearer !== 'null' && bearer !== 'undefined') recordSecret('bearerToken', bearer, source);
  try {
    const params = new URL(url, 'http://localhost').searchParams;
    const token = params.get('token');
    if (token) recordSecret('linkToken', token, source);
    const proofSession = params.get('sessionUuid');
    if (proofSession) recordSecret('proofSession', proofSession, source);
  } catch {
    // not a URL: nothing to record
  }
}

function recordSetCookie(setCookie: string | null | undefined, source: string): void {
  for (const match of (setCookie ?? '').matchAll(/provee_staff=([^;\s]+)/g)) {
    // @fastify/session's cookie: the session id, a dot, its signature (URL-encoded).
    const sessionId = decodeURIComponent(match[1]!).split('.')[0]!;
    if (sessionId.length >= 16) recordSecret('sessionCookie', sessionId, source);
  }
}

/** The secrets an SMS carries: a 6-digit code, a 4-digit PIN, the token of a link. */
export function recordSms(body: string, source: string): void {
  for (const match of body.matchAll(/https?:\/\/\S+/g)) recordFromHeadersAndUrl(match[0], {}, source);
  if (/NIP/i.test(body)) {
    for (const match of body.matchAll(/(?<![\d\w])(\d{4})(?![\d\w])/g)) recordSecret('pin', match[1]!, source);
  } else {
    for (const match of body.matchAll(/(?<![\d\w])(\d{6})(?![\d\w])/g)) recordSecret('smsCode', match[1]!, source);
  }
}

const pending = new Set<Promise<unknown>>();
function track(promise: Promise<unknown>): void {
  const settled = promise.catch(() => undefined).finally(() => pending.delete(settled));
  pending.add(settled);
}

/** Waits for the answers still being read (a test's last response). */
export async function ledgerSettled(): Promise<void> {
  await Promise.race([Promise.allSettled([...pending]), new Promise((resolve) => setTimeout(resolve, 2_000))]);
}

const isJson = (contentType: string | undefined) => /application\/json/.test(contentType ?? '');
const isOwnApi = (url: string) => /\/(?:api|ops|dev)\//.test(new URL(url).pathname);
const isStaffAnswer = (url: string) => /^\/(?:api\/backoffice|ops)\//.test(new URL(url).pathname);

async function readAnswer(response: Response | APIResponse, url: string, source: string): Promise<void> {
  if (!isOwnApi(url)) return;
  // A page's answer hides its cookies from headers(); an API answer lists them there.
  recordSetCookie(
    'headerValue' in response ? await response.headerValue('set-cookie') : response.headers()['set-cookie'],
    source,
  );
  if (!isJson(response.headers()['content-type'])) return;
  const body: unknown = JSON.parse((await response.body()).toString('utf8'));
  // Staff answers carry audit payloads, whose `session_id` is a reverse-OTP session's row id (its
  // key is stored only as a hash): not a secret. Every other secret of theirs is recorded.
  recordFromJson(body, source, 0, isStaffAnswer(url) ? ['session_id'] : []);
  // The simulated phone's inbox: every SMS a test reads (codes, PINs, invitation and signing links).
  if (new URL(url).pathname === '/dev/outbox.json')
    for (const message of (body as { messages?: { body?: unknown }[] }).messages ?? [])
      if (typeof message.body === 'string') recordSms(message.body, source);
}

const watched = new WeakSet<object>();

/**
 * Everything a browser context sends and receives (its pages' requests and answers, and the calls
 * of `context.request`, which Playwright reports through no event).
 */
export function watchContext(context: BrowserContext): void {
  if (watched.has(context)) return;
  watched.add(context);
  context.on('request', (request: Request) => {
    const source = `browser ${request.method()} ${new URL(request.url()).pathname}`;
    recordFromHeadersAndUrl(request.url(), request.headers(), source);
    try {
      recordFromJson(request.postDataJSON(), source);
    } catch {
      // a body that is not JSON (the identity photos' multipart form)
    }
  });
  context.on('response', (response: Response) => {
    track(readAnswer(response, response.url(), `browser answer ${new URL(response.url()).pathname}`));
  });
  watchRequestContext(context.request);
}

/** Wraps `fetch` of an API request context (get, post, put… all go through it). */
export function watchRequestContext(request: APIRequestContext): void {
  if (watched.has(request)) return;
  watched.add(request);
  const fetch = request.fetch.bind(request);
  request.fetch = async (urlOrRequest, options = {}) => {
    const url = typeof urlOrRequest === 'string' ? urlOrRequest : urlOrRequest.url();
    const source = `api ${options.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}`;
    recordFromHeadersAndUrl(url, (options.headers as Record<string, string> | undefined) ?? {}, source);
    if (options.data !== undefined && typeof options.data !== 'string' && !Buffer.isBuffer(options.data))
      recordFromJson(options.data, source);
    const response = await fetch(urlOrRequest, options);
    track(readAnswer(response, response.url(), `${source} answer`));
    return response;
  };
}

/** Every context the browser opens is watched (tests that open a second one with browser.newContext). */
export function watchBrowser(browser: Browser): void {
  if (watched.has(browser)) return;
  watched.add(browser);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context);
    return context;
  };
}
