import { staffMay, type StaffPermission, type StaffView } from '@provee/domain';
import { createContext, useContext } from 'react';

/** Who is signed in; provided by the layout once GET /session answered. */
export const StaffContext = createContext<StaffView | null>(null);

export function useStaff(): StaffView {
  const staff = useContext(StaffContext);
  if (!staff) throw new Error('useStaff outside the back office layout');
  return staff;
}

/** Whether the signed-in role may use something: to hide it, never to protect it (the API does). */
export function useCan(): (permission: StaffPermission) => boolean {
  const { role } = useStaff();
  return (permission) => staffMay(role, permission);
}
