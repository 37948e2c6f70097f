import { staffMay, type StaffPermission, type StaffSessionView, type StaffView } from '@provee/domain';
import { createContext, useContext } from 'react';

export interface StaffSession {
  /** Who is signed in, and until when their last second factor counts (step_up_until). */
  session: StaffSessionView;
  /** A newer view of the session (after a step-up or an enrolment). */
  setSession: (session: StaffSessionView) => void;
}

/** Provided by the layout once GET /session answered with an active session. */
export const StaffContext = createContext<StaffSession | null>(null);

export function useSession(): StaffSession {
  const value = useContext(StaffContext);
  if (!value) throw new Error('useSession outside the back office layout');
  return value;
}

export const useStaff = (): StaffView => useSession().session.staff;

/** Whether the signed-in role may use something: to hide it, never to protect it (the API does). */
export function useCan(): (permission: StaffPermission) => boolean {
  const { role } = useStaff();
  return (permission) => staffMay(role, permission);
}
