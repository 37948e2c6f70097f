import type { Route } from '../call.js';

// Where the guarantor calls go: the shopkeeper's and the guarantor's own (zod-free, one value per call).
export const registerAvalRoute = { method: 'POST', path: '/api/v1/users/:id/:type/avals' } as const satisfies Route;
export const sendAvalNipRoute = { method: 'POST', path: '/api/v1/users/:id/:type/aval/nip' } as const satisfies Route;
export const confirmAvalNipRoute = { method: 'PUT', path: '/api/v1/users/:id/:type/aval/nip' } as const satisfies Route;
export const changeAvalPhoneRoute = {
  method: 'PUT',
  path: '/api/v1/users/:id/:type/aval/phone-number',
} as const satisfies Route;
export const avalInvitationRoute = { method: 'GET', path: '/api/v1/users/aval/invitation' } as const satisfies Route;
export const startAvalConsentRoute = { method: 'POST', path: '/api/v1/users/aval/consent' } as const satisfies Route;
export const restartAvalConsentRoute = {
  method: 'POST',
  path: '/api/v1/users/aval/reverse-otp',
} as const satisfies Route;
export const pollAvalConsentRoute = { method: 'PUT', path: '/api/v1/users/aval/reverse-otp' } as const satisfies Route;
