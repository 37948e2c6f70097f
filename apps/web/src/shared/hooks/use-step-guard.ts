import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  applicationState,
  routeForState,
  screenAllows,
  type ApplicationState,
  type StepScreen,
} from '../lib/application-state.js';
import { uiState } from '../lib/ui-state.js';
import { getUser } from '../lib/users-api.js';

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
 * Every step screen asks this first: is it the screen for where the application stands? If not,
 * replace-navigate there. It reads the tab's application state (kept by every step answer and user
 * fetch) and asks the server only on a cold load (reload, opened by URL). Checked on arrival.
 * Answers true when the screen may show.
 */
export function useStepGuard(screen: StepScreen): boolean {
  const { phoneNumber = '', userId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<ApplicationState | null>(() => applicationState.get(userId));
  const allowed = state ? screenAllows(screen, state) : false;
  const target = state && !allowed ? redirectFor(screen, phoneNumber, state, pathname) : null;

  useEffect(() => {
    if (state) return;
    let live = true;
    getUser(userId)
      .then(() => live && setState(applicationState.get(userId)))
      .catch((error: unknown) => live && uiState.showError(error, { goTo: '/home' }));
    return () => {
      live = false;
    };
  }, [state, userId]);

  useEffect(() => {
    if (target) navigate(target, { replace: true });
  }, [target, navigate]);

  return allowed;
}
