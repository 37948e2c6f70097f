import { route } from './route.js';

// Where the phone-proof calls go. Zod-free, one value per call: the web imports only what a screen uses.
export const sendCodeRoute = route('POST', '/api/v1/users/code');
export const confirmCodeRoute = route('PUT', '/api/v1/users/code');
export const startReverseOtpRoute = route('POST', '/api/v1/users/reverse-otp');
export const pollReverseOtpRoute = route('PUT', '/api/v1/users/reverse-otp');
