// What other modules use of authentication.
export { requirePhoneAccess, requirePrincipal, requireUserAccess } from './auth.js';
export type { Principal } from './tokens.js';
