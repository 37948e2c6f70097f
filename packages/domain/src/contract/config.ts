/** GET /v1/config answers `publicConfigSchema` (kept in public-config.ts, where the app also reads it). */
export { publicConfigSchema, type PublicConfig } from '../public-config.js';
