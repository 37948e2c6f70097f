import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  applicationState,
  routeForState,
  screenView,
  type ApplicationState,
  type StepScreen,
  type StepView,
} from '../lib/application-state.js';
import { reproveTarget } from '../lib/proven-phone.js';
import { hasSession } from '../lib/session-owner.js';
import { borrowSession, lendSessionToOtherTabs } from '../lib/session-share.js';
import { uiState } from '../lib/ui-state.js';
import { getUser } from '../lib/users-api.js';

export type { StepView };

/** Where a screen the state does not allow sends the user. */
function redirectFor(screen: StepScreen, phone: string, state: ApplicationState, here: string): string {
  // The bureau answered while away from /waiting: an approval shows the pre-approval first.
  if (screen === 'waiting' && state.next_step === 'PASSWORD' && state.status === 'IN_PROGRESS') {
    return `/${phone || state.phone || ''}/${state.user_id}/congratulations`;
  }
  const target = routeForState(phone, state);
  // A state routing sends back here (an unknown step that is not IN_PROGRESS): nothing to show.
  return target.split('?')[0] === here ? '/rejected' : target;
}

/**
 * Every step screen asks this first: is it the screen for where the application stands, or a
 * registration step already saved (going back, its link)? Otherwise replace-navigate to where it
 * stands. It reads the tab's application state (kept by every step answer and user fetch) and asks
 * the server only on a cold load (reload, opened by URL). A tab without a session (a second tab, a
 * saved link) borrows one from an open tab of the same number, or proves the number again
 * (issue 27). Checked on arrival and on every render after. Answers how the screen shows, null
 * while it may not.
 */
export function useStepGuard(screen: StepScreen): StepView | null {
  const { phoneNumber = '', userId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [fetched, setFetched] = useState<ApplicationState | null>(() => applicationState.get(userId));
  // Read again on every render: a screen can outlive its own save (back pressed while the next
  // screen was still loading keeps it mounted), and must then show the step as saved.
  const state = applicationState.get(userId) ?? fetched;
  const view = state ? screenView(screen, state) : null;
  const target = state && !view ? redirectFor(screen, phoneNumber, state, pathname) : null;

  // A second tab of this person, opened on a step's address, continues with this tab's session.
  useEffect(lendSessionToOtherTabs, []);

  useEffect(() => {
    if (state) return;
    let live = true;
    (async () => {
      if (!hasSession(phoneNumber) && !(await borrowSession({ phone: phoneNumber || null, userId: userId || null }))) {
        if (live) navigate(reproveTarget(phoneNumber), { replace: true });
        return;
      }
      await getUser(userId);
      if (live) setFetched(applicationState.get(userId));
    })().catch((error: unknown) => live && uiState.showError(error, { goTo: '/home' }));
    return () => {
      live = false;
    };
  }, [state, userId, phoneNumber, navigate]);

  useEffect(() => {
    if (target) navigate(target, { replace: true });
  }, [target, navigate]);

  return view;
}
