import { REQUEST_TIMEOUT_MS, SESSION_KEYS, isErrorEnvelope } from '@provee/domain';
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
  ) {
    super(message);
  }
}

export interface RequestOptions {
  body?: unknown;
  /** Show the global spinner while in flight (SPEC §2.1); on unless a screen has its own. */
  spinner?: boolean;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

const NETWORK_MESSAGE = 'No pudimos conectarnos. Revisa tu conexión a internet e intenta de nuevo.';

/** The one way the web app calls its API: JSON, the stored token, the SPEC §7 timeout. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = session.get(SESSION_KEYS.clientToken);
  if (token) headers.authorization = token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  const spinner = options.spinner ?? true;
  if (spinner) uiState.startLoading();
  try {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE, NETWORK_MESSAGE);
    }
    const text = await response.text();
    const json: unknown = text ? safeJson(text) : undefined;
    if (response.ok) return json as T;
    if (isErrorEnvelope(json)) {
      const { code, message, readable_message, issues } = json;
      throw new ApiError(response.status, code, message, readable_message, issues);
    }
    throw new ApiError(response.status, 'HTTP_ERROR', `HTTP ${response.status}`, '');
  } finally {
    if (spinner) uiState.stopLoading();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
