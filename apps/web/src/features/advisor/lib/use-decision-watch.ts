import { routeAfterLookup } from '@provee/domain';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/lib/api-client.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { getUser } from '../../../shared/lib/users-api.js';
import { pollWhileVisible } from '../../../shared/lib/visible-poll.js';

/** How often the screen asks while the lender decides, and after how many questions in a row without an answer it stops. */
export const DECISION_POLL_MS = 15_000;
export const DECISION_MAX_FAILURES = 30;
/** Coming back to the page asks at once, but not more often than this. */
const BACK_MIN_MS = 5_000;

/** The application is with the lender for its decision (issue 30). */
export const isUnderReview = (state: { next_step: string; status: string } | null | undefined) =>
  state?.next_step === 'PENDING_APPROVAL' && state.status === 'IN_PROGRESS';

/**
 * While `active` (the application is with the lender), asks the server where it stands every 15 s
 * while the page is in view (shared/lib/visible-poll.ts: none while hidden, a 429's Retry-After
 * waited out, stopped after 30 questions in a row without an answer) and, once the lender decided,
 * replace-navigates where it stands (SPEC §2.2). Every answer updates the tab's application state.
 */
export function useDecisionWatch(active: boolean, phone: string, userId: string): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return;
    return pollWhileVisible({
      ask: async (stopped) => {
        try {
          const { data } = await getUser(userId, { spinner: false });
          if (stopped.aborted) return 'done';
          if (isUnderReview(data)) return 'again';
          navigate(routeAfterLookup({ kind: 'user', phone: phone || data.phone_number, user: data }), {
            replace: true,
          });
          return 'done';
        } catch (error) {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
            // An ended session: the modal proves the number again and comes back where it stands.
            // Anything else refused (not this person's) will not get better by asking.
            if (!stopped.aborted && error.status === 401) uiState.showError(error);
            return 'done';
          }
          throw error;
        }
      },
      firstWaitMs: DECISION_POLL_MS,
      maxFailures: DECISION_MAX_FAILURES,
      backMinMs: BACK_MIN_MS,
    });
  }, [active, navigate, phone, userId]);
}
