import type { Route } from '../call.js';

// Where the public configuration is (the server also writes it into index.html).
export const publicConfigRoute = { method: 'GET', path: '/api/v1/config' } as const satisfies Route;
