import type { Route } from '../call.js';

// Where the phone-proof calls go. Zod-free, one value per call: the web imports only what a screen uses.
export const sendCodeRoute = { method: 'POST', path: '/api/v1/users/code' } as const satisfies Route;
export const confirmCodeRoute = { method: 'PUT', path: '/api/v1/users/code' } as const satisfies Route;
export const startReverseOtpRoute = { method: 'POST', path: '/api/v1/users/reverse-otp' } as const satisfies Route;
export const pollReverseOtpRoute = { method: 'PUT', path: '/api/v1/users/reverse-otp' } as const satisfies Route;
