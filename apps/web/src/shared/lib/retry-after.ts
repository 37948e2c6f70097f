import { ApiError } from './api-client.js';

/** The seconds a refusal asks to wait before trying again (`retry_after_seconds` of 429 and 503), or null. */
export function retryAfterSeconds(error: unknown): number | null {
  const wait = error instanceof ApiError ? error.details.retry_after_seconds : undefined;
  return typeof wait === 'number' && Number.isFinite(wait) ? wait : null;
}
