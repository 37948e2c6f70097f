import { route } from './route.js';

// Where a lead goes to sales (an operations call the web app also makes, with its public key).
export const assignLeadRoute = route('POST', '/ops/v1/lead-assignment');
