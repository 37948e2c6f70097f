import { createWorkerPool, type WorkerEntry, type WorkerPoolOptions } from '../../worker-pool.js';
import type { ContractDocumentInput, SignedParty } from './document/index.js';
import type { SigningTask } from './signing-worker.js';

/** A PDF built on a worker thread, with its SHA-256 (computed there too). */
export interface RenderedPdf {
  pdf: Uint8Array;
  sha256: string;
}

/**
 * The contract documents (document/unsigned.ts, document/signed.ts) built off the event loop, each
 * within PDF_TIMEOUT_MS; a build past it, or over the waiting line, is a Spanish 503.
 */
export interface ContractRenderer {
  unsigned(input: ContractDocumentInput): Promise<RenderedPdf>;
  signed(unsigned: Uint8Array, parties: SignedParty[], signedAt: Date): Promise<RenderedPdf>;
  readonly stats: { running: number; waiting: number; threads: number };
  close(): Promise<void>;
}

export const SIGNING_WORKER: WorkerEntry = { source: 'modules/signing/signing-worker.ts', built: 'signing-worker.js' };

export function createContractRenderer(options: WorkerPoolOptions): ContractRenderer {
  const pool = createWorkerPool(SIGNING_WORKER, {
    timeoutMessage: 'No pudimos terminar de preparar tu documento a tiempo. Intenta de nuevo en un momento.',
    ...options,
  });
  const run = (task: SigningTask, input: unknown) => pool.run<RenderedPdf>(task, input);
  return {
    unsigned: (input) => run('unsigned', input),
    signed: (unsigned, parties, signedAt) => run('signed', { unsigned, parties, signedAt }),
    get stats() {
      return pool.stats;
    },
    close: () => pool.close(),
  };
}
