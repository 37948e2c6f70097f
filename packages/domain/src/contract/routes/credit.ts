import type { Route } from '../call.js';

// Where the credit calls go: consent, NIP, password, advisor (zod-free, one value per call).
export const consentTextRoute = { method: 'GET', path: '/api/v1/consents/text' } as const satisfies Route;
export const sendNipRoute = { method: 'POST', path: '/api/v1/users/:id/:type/nip' } as const satisfies Route;
export const confirmNipRoute = { method: 'PUT', path: '/api/v1/users/:id/:type/nip' } as const satisfies Route;
export const consentsRoute = { method: 'GET', path: '/api/v1/users/:id/:type/consents' } as const satisfies Route;
export const savePasswordRoute = { method: 'PUT', path: '/api/v1/users/:id/:type/password' } as const satisfies Route;
export const recordAdvisorEventRoute = {
  method: 'POST',
  path: '/api/v1/users/:id/:type/advisor-events',
} as const satisfies Route;
