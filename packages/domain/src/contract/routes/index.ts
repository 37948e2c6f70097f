// The routes of the contract's calls: zod-free values the web imports (the calls spread them).
export * from './phone-proof.js';
export * from './users.js';
export * from './registration.js';
export * from './credit.js';
export * from './avals.js';
export * from './catalog.js';
export * from './leads.js';
export * from './client-errors.js';
export * from './config.js';
export * from './operations.js';
export * from './backoffice.js';
export * from './staff.js';
export * from './signing.js';
export * from './jobs.js';
