import type { StaffLoginStage, StaffSessionView } from '@provee/domain';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { BackofficeError } from '../api.js';
import { session as sessionApi } from '../security-api.js';
import { LOGIN, stagePath } from './login-steps.js';
import { asBackofficeError } from './use-resource.js';

/**
 * The login waiting at `stage` (the second factor, or its enrolment): the one the login screen
 * just opened, or, after single sign-on or a reload, the server's. A login at another stage goes
 * to that stage's screen; none, to the login.
 */
export function usePendingSession(stage: StaffLoginStage, known: StaffSessionView | null) {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const next = query.get('next');
  const [view, setView] = useState<StaffSessionView | null>(known?.stage === stage ? known : null);
  const [error, setError] = useState<BackofficeError | null>(null);

  useEffect(() => {
    if (view) return;
    let current = true;
    sessionApi.current().then(
      (answer) => {
        if (!current) return;
        if (answer.stage === stage) setView(answer);
        else navigate(stagePath(answer.stage, next), { replace: true });
      },
      (caught: unknown) => {
        if (!current) return;
        const failure = asBackofficeError(caught);
        if (failure.status === 401) navigate(LOGIN, { replace: true });
        else setError(failure);
      },
    );
    return () => {
      current = false;
    };
  }, [view, stage, next, navigate]);

  return { view, error, next };
}
