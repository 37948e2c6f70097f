import type { GuarantorBureau } from './deps.js';
import type { PasswordHasher } from './password.js';

// What app.ts decorates the Fastify instance with for this module.
declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordHasher;
    /** The guarantor's side of their bureau queries (modules/guarantors provides it: deps.ts says why). */
    guarantorBureau: GuarantorBureau;
  }
}
