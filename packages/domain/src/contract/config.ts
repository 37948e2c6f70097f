import { publicConfigSchema } from '../public-config.js';
import { defineCall } from './call.js';
import { publicConfigRoute } from './routes/config.js';

/** GET /v1/config answers `publicConfigSchema` (kept in public-config.ts, where the app also reads it). */
export { publicConfigSchema, type PublicConfig } from '../public-config.js';

export const publicConfigCall = defineCall(publicConfigRoute, { responses: { 200: publicConfigSchema } });
