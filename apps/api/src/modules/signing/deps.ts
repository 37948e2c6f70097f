import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { identityDeps, type IdentityDeps } from '../identity/index.js';
import type { JobQueue } from '../jobs/index.js';
import type { ContractRenderer } from './contract-renderer.js';
import type { ContractSealer } from './seal/sealer.js';

/**
 * What the contract's use cases use, never the Fastify instance: identity's deps (the signer's
 * check, the signature decoded like the photos), and the PDF renderer.
 */
export interface SigningDeps extends IdentityDeps {
  pdfRenderer: ContractRenderer;
  /** Who seals the fully signed PDF and who dates the seal (seal/sealer.ts). */
  contractSealer: ContractSealer;
  log: Pick<FastifyBaseLogger, 'error'>;
  /**
   * The job queue: the signed copy is a job of the signature's transaction; its message and a
   * signing link's are message-send jobs of theirs (modules/messaging).
   */
  jobs: Pick<JobQueue, 'enqueue' | 'wake' | 'runsHere'>;
}

export function signingDeps(app: FastifyInstance): SigningDeps {
  return {
    ...identityDeps(app),
    pdfRenderer: app.pdfRenderer,
    contractSealer: app.contractSealer,
    log: app.log,
    jobs: app.jobs,
  };
}
