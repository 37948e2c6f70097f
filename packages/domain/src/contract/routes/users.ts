import type { Route } from '../call.js';

// Where the users calls go (zod-free, one value per call: the web imports only what a screen uses).
export const lookupUserRoute = { method: 'GET', path: '/api/v1/users' } as const satisfies Route;
export const userDetailRoute = { method: 'GET', path: '/api/v1/users/:id/:type' } as const satisfies Route;
