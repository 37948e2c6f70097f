import type { StaffSessionView } from '@provee/domain';
import { createContext, useContext } from 'react';
import { serverNow } from '../api.js';

/** Asked again this long before the server's limit: the click still has to reach it. */
const MARGIN_MS = 5_000;

/** Whether the last second factor still counts for exports, images, downloads and staff changes. */
export function stepUpFresh(session: StaffSessionView): boolean {
  if (!session.step_up_until) return false;
  return Date.parse(session.step_up_until) - MARGIN_MS > serverNow();
}

/**
 * Asks for the second factor (the layout's 'Confirma que eres tú' dialog) unless the last one is
 * recent; answers whether the person may go on.
 */
export const StepUpContext = createContext<() => Promise<boolean>>(() => Promise.resolve(false));

export const useStepUp = () => useContext(StepUpContext);
