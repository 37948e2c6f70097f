import { SESSION_KEYS } from '@provee/domain';
import { ApiError } from './api-client.js';
import { applicationState } from './application-state.js';
import { session } from './session.js';

/** The server's reason for a refusal (422/412), kept for /rejected to show once. */
export function rememberRejection(error: unknown): void {
  // The application moved (rejected): the next screen asks the server where it stands.
  applicationState.clear();
  if (error instanceof ApiError && error.readableMessage)
    session.set(SESSION_KEYS.rejectedReason, error.readableMessage);
  else session.remove(SESSION_KEYS.rejectedReason);
}

/** The reason kept for /rejected, if any. */
export function rejectionReason(): string | null {
  return session.get(SESSION_KEYS.rejectedReason);
}

/** Once shown, the reason goes: a later /rejected (reload, another refusal) starts clean. */
export function forgetRejection(): void {
  session.remove(SESSION_KEYS.rejectedReason);
}
