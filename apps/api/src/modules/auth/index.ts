// What other modules use of authentication.
export { requirePhoneAccess, requirePrincipal, requireToken, requireUserAccess } from './auth.js';
export type { Principal } from './tokens.js';
