import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { identityDeps, type IdentityDeps } from '../identity/index.js';
import type { JobQueue } from '../jobs/index.js';
import { sendSms } from '../sms/index.js';
import type { ContractRenderer } from './contract-renderer.js';

/**
 * What the contract's use cases use, never the Fastify instance: identity's deps (the signer's
 * check, the signature decoded like the photos), the PDF renderer, and the SMS sender, bound to
 * the app here because modules/sms still takes the app (only this file changes when it takes deps).
 */
export interface SigningDeps extends IdentityDeps {
  pdfRenderer: ContractRenderer;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Sends an SMS now (modules/sms), for the signed copy's own job: a provider failure is a Spanish 503. */
  sendSms: (to: string, body: string) => Promise<void>;
  /**
   * The job queue: the signed copy's SMS is a job of the signature's transaction, a signing link's
   * an sms-send job of the link's.
   */
  jobs: Pick<JobQueue, 'enqueue' | 'wake' | 'runsHere'>;
}

export function signingDeps(app: FastifyInstance): SigningDeps {
  return {
    ...identityDeps(app),
    pdfRenderer: app.pdfRenderer,
    log: app.log,
    sendSms: (to, body) => sendSms(app, to, body),
    jobs: app.jobs,
  };
}
