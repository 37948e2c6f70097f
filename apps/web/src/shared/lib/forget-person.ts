import { PERSONAL_SESSION_KEYS } from '@provee/domain';
import { applicationState } from './application-state.js';
import { session } from './session.js';

/**
 * A different number was proven in this tab: nothing of the previous person stays (values,
 * drafts, token, lead id, refusal reason, the state in memory). Only the entry link's keys
 * (campaign, version, proof vendor) remain. Derived from SESSION_KEYS, so a new key is covered.
 */
export function forgetPerson(): void {
  for (const key of PERSONAL_SESSION_KEYS) session.remove(key);
  applicationState.clear();
}
