import {
  REQUEST_TIMEOUT_MS,
  SESSION_KEYS,
  classifyFailedCall,
  isErrorEnvelope,
  reportClientErrorRoute,
} from '@provee/domain';
import type { ClientErrorReport } from '@provee/domain';
import { reproveTarget } from './proven-phone.js';
import { session } from './session.js';
import { uiState } from './ui-state.js';

/** A non-2xx answer (or no answer) from our API, with the envelope's fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly readableMessage: string,
    readonly issues: { field: string; message: string }[] = [],
    /** The rest of the envelope (e.g. retry_after_seconds). */
    readonly details: Record<string, unknown> = {},
    readonly requestId?: string,
  ) {
    super(message);
  }
  /** The session this tab sent is no longer valid: where the person proves the number again. */
  reprove?: string;
}

export interface RequestOptions {
  /** Sent as JSON; a FormData goes as is (multipart, the browser writes the content type and boundary). */
  body?: unknown;
  /** Show the global spinner while in flight (SPEC §2.1); on unless a screen has its own. */
  spinner?: boolean;
  timeoutMs?: number;
  /** Extra headers; an `authorization` here replaces the stored token. */
  headers?: Record<string, string>;
  /** Send failures to /api/v1/client-errors per SPEC §8 (on unless the caller handles them all). */
  report?: boolean;
  /** Ends the request early (the screen that waits for it went away). */
  signal?: AbortSignal;
}

const NETWORK_MESSAGE = 'No pudimos conectarnos. Revisa tu conexión a internet e intenta de nuevo.';

/**
 * How every request to our API goes: JSON, the stored token, the SPEC §7 timeout, the spinner, the
 * failed-call report. Screens call through `apiRequest` (api-request.ts: a route of the contract,
 * typed by it); this file is what the landing loads, so it stays this small.
 */
export async function sendRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = session.get(SESSION_KEYS.clientToken);
  // A caller's own Authorization (a guarantor's invitation link) wins over the stored session token.
  const usesSession = Boolean(token && !headers.authorization);
  if (usesSession) headers.authorization = token!;
  if (options.body !== undefined && !(options.body instanceof FormData)) headers['content-type'] = 'application/json';

  const spinner = options.spinner ?? true;
  if (spinner) uiState.startLoading();
  try {
    return await send<T>(method, path, headers, options);
  } catch (error) {
    if (error instanceof ApiError && options.report !== false) reportFailedCall(method, path, error);
    // Expired or refused (12 h passed, the server's key changed): the stored session is dead. What
    // was typed stays; the error says where to prove the number again (SPEC §8, issue 27).
    if (error instanceof ApiError && error.status === 401 && error.code === 'UNAUTHENTICATED' && usesSession) {
      session.remove(SESSION_KEYS.clientToken);
      error.reprove = reproveTarget(session.get(SESSION_KEYS.provenPhone));
    }
    throw error;
  } finally {
    if (spinner) uiState.stopLoading();
  }
}

async function send<T>(
  method: string,
  path: string,
  headers: Record<string, string>,
  options: RequestOptions,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: encodeBody(options.body),
      signal: withTimeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS, options.signal),
    });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE, NETWORK_MESSAGE);
  }
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (response.ok) return json as T;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (isErrorEnvelope(json)) {
    const { code, message, readable_message, issues, ...details } = json as typeof json & Record<string, unknown>;
    throw new ApiError(response.status, code, message, readable_message, issues, details, requestId);
  }
  throw new ApiError(response.status, 'HTTP_ERROR', `HTTP ${response.status}`, '', [], {}, requestId);
}

/** The request's own time bound, and the caller's signal when it has one (and the browser can join them). */
function withTimeout(ms: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal && typeof AbortSignal.any === 'function' ? AbortSignal.any([signal, timeout]) : timeout;
}

/** SPEC §8: expected refusals are not reported, other 4xx are warnings, 5xx and no answer errors. */
function reportFailedCall(method: string, path: string, error: ApiError): void {
  const level = classifyFailedCall(method, path, error.status);
  if (level === 'skip') return;
  const body = {
    level,
    method,
    path: path.slice(0, 500),
    status: error.status,
    code: error.code,
    message: error.message.slice(0, 1000),
    ...(error.requestId ? { request_id: error.requestId } : {}),
  } satisfies ClientErrorReport;
  fetch(reportClientErrorRoute.path, {
    method: reportClientErrorRoute.method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    keepalive: true,
  }).catch(() => {
    // Reporting must never become a second error for the user.
  });
}

function encodeBody(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  return body instanceof FormData ? body : JSON.stringify(body);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
