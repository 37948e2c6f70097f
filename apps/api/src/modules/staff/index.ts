export { registerStaffSessions, requireStaff, staffActor, staffOnly, BACKOFFICE_API_PREFIX } from './staff-auth.js';
export { createStaff, staffChain, type StaffRow } from './staff.service.js';
export { staffRoutes } from './staff-routes.js';
