import { route } from './route.js';

// Where the web app reports a failed call (SPEC §8); api-client.ts sends it.
export const reportClientErrorRoute = route('POST', '/api/v1/client-errors');
