import type { Route } from '../call.js';

// Where the web app reports a failed call (SPEC §8); api-client.ts sends it.
export const reportClientErrorRoute = { method: 'POST', path: '/api/v1/client-errors' } as const satisfies Route;
