import type { PartnerScope } from '@provee/domain';
import type { PartnerKeyRow } from '../integrations/index.js';

// What the partner API's hooks add to its requests and routes.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a partner key needs for this route (partner-auth.ts checks it). */
    partnerScope?: PartnerScope;
  }
  interface FastifyRequest {
    /** The partner key the call came with, once partner-auth.ts accepted it. */
    partnerKey?: PartnerKeyRow;
  }
}
