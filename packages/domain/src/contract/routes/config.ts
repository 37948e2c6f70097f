import { route } from './route.js';

// Where the public configuration is (the server also writes it into index.html).
export const publicConfigRoute = route('GET', '/api/v1/config');
