// One contract (issue 9): the request and success-response schemas of every call the web app
// makes. The API routes validate with them; the web imports their types only (`import type`).
export * from './common.js';
export * from './phone-proof.js';
export * from './users.js';
export * from './registration.js';
export * from './credit.js';
export * from './avals.js';
export * from './catalog.js';
export * from './leads.js';
export * from './client-errors.js';
export * from './config.js';
export * from './signing.js';
export * from './backoffice.js';
