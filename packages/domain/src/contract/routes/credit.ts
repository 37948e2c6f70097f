import { route } from './route.js';

// Where the credit calls go: consent, NIP, password, advisor (zod-free, one value per call).
export const consentTextRoute = route('GET', '/api/v1/consents/text');
export const sendNipRoute = route('POST', '/api/v1/users/:id/:type/nip');
export const confirmNipRoute = route('PUT', '/api/v1/users/:id/:type/nip');
export const consentsRoute = route('GET', '/api/v1/users/:id/:type/consents');
export const savePasswordRoute = route('PUT', '/api/v1/users/:id/:type/password');
export const recordAdvisorEventRoute = route('POST', '/api/v1/users/:id/:type/advisor-events');
