export { registerStaffSessions, requireStaff, staffActor, staffOnly, BACKOFFICE_API_PREFIX } from './staff-auth.js';
export { type StaffRow } from './accounts.store.js';
export { staffPasswordProblem } from './password-rules.js';
export { createStaff, isStaffRole, staffChain } from './staff.service.js';
export { staffRoutes } from './staff-routes.js';
export { loginCounterSweepJob } from './counter-sweep.js';
