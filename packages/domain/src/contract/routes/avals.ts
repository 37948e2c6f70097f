import { route } from './route.js';

// Where the guarantor calls go: the shopkeeper's and the guarantor's own (zod-free, one value per call).
export const registerAvalRoute = route('POST', '/api/v1/users/:id/:type/avals');
export const sendAvalNipRoute = route('POST', '/api/v1/users/:id/:type/aval/nip');
export const confirmAvalNipRoute = route('PUT', '/api/v1/users/:id/:type/aval/nip');
export const changeAvalPhoneRoute = route('PUT', '/api/v1/users/:id/:type/aval/phone-number');
export const avalInvitationRoute = route('GET', '/api/v1/users/aval/invitation');
export const startAvalConsentRoute = route('POST', '/api/v1/users/aval/consent');
export const restartAvalConsentRoute = route('POST', '/api/v1/users/aval/reverse-otp');
export const pollAvalConsentRoute = route('PUT', '/api/v1/users/aval/reverse-otp');
