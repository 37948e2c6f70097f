// One contract (issues 9, 28): every call of the API is one value (`defineCall`: route, params,
// query, body, responses). The API registers and documents its routes from these values; the web
// imports only the zod-free routes (`routes/`) and finds each call's types by its route (`CallOf`).
export * from './call.js';
export * from './routes/index.js';
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
export * from './operations.js';
export * from './staff.js';
export * from './jobs.js';
export * from './lending.js';
export * from './integrations.js';
export * from './events.js';
export * from './partner.js';
export * from './privacy.js';
export * from './retention.js';
export * from './policies.js';
export * from './messaging.js';
