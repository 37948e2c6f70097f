import type { Route } from '../call.js';

// Where a lead goes to sales (an operations call the web app also makes, with its public key).
export const assignLeadRoute = { method: 'POST', path: '/ops/v1/lead-assignment' } as const satisfies Route;
