import type { ContractRenderer } from './contract-renderer.js';
import type { ContractSealer } from './seal/sealer.js';

// What app.ts decorates the Fastify instance with for this module (`images`: modules/identity/decorations.ts).
declare module 'fastify' {
  interface FastifyInstance {
    /** The contract PDFs, built on worker threads (contract-renderer.ts). */
    pdfRenderer: ContractRenderer;
    /** The lender's seal on the fully signed PDF and its time-stamping authority (seal/sealer.ts). */
    contractSealer: ContractSealer;
  }
}
