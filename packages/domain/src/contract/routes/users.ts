import { route } from './route.js';

// Where the users calls go (zod-free, one value per call: the web imports only what a screen uses).
export const lookupUserRoute = route('GET', '/api/v1/users');
export const userDetailRoute = route('GET', '/api/v1/users/:id/:type');
