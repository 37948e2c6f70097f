import type { GuarantorBureau } from './deps.js';
import type { PasswordHasher } from './password.js';
import type { CreditPolicy } from './policy.js';

// What app.ts decorates the Fastify instance with for this module.
declare module 'fastify' {
  interface FastifyInstance {
    policy: CreditPolicy;
    passwords: PasswordHasher;
    /** The guarantor's side of their bureau queries (modules/guarantors provides it: deps.ts says why). */
    guarantorBureau: GuarantorBureau;
  }
}
