import { useEffect, useState } from 'react';
import { applicationState, type LenderApproval } from '../../../shared/lib/application-state.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { getUser } from '../../../shared/lib/users-api.js';

/**
 * The lender's approval (the final amount and terms, issue 30): what this tab knows (the user fetch
 * that led here, or the step guard's on a cold load), else asked once. Undefined while unknown,
 * null when the server has none.
 */
export function useLenderApproval(userId: string): LenderApproval | null | undefined {
  const [approval, setApproval] = useState(() => applicationState.get(userId)?.lender_approval);
  useEffect(() => {
    if (approval !== undefined) return;
    let live = true;
    getUser(userId).then(
      ({ data }) => live && setApproval(data.lender_approval),
      (error: unknown) => live && uiState.showError(error),
    );
    return () => {
      live = false;
    };
  }, [approval, userId]);
  return approval;
}
