import { createWorkerPool, type WorkerEntry, type WorkerPoolOptions } from '../../worker-pool.js';
import type { ContractDocumentInput, SignedParty } from './document/index.js';
import type { Credential, CredentialSource } from '../../pki/p12.js';
import type { SealInput, SigningTask } from './signing-worker.js';

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
  /** With `seal`, the lender's seal on it too (the last signature: seal/pades.ts). */
  signed(unsigned: Uint8Array, parties: SignedParty[], signedAt: Date, seal?: SealInput): Promise<RenderedPdf>;
  /** A PKCS#12 read (or a development one made) on the thread: forge's key derivation never holds the event loop. */
  credential(source: CredentialSource): Promise<Credential>;
  readonly stats: { running: number; waiting: number; threads: number };
  close(): Promise<void>;
}

export const SIGNING_WORKER: WorkerEntry = { source: 'modules/signing/signing-worker.ts', built: 'signing-worker.js' };

export function createContractRenderer(options: WorkerPoolOptions): ContractRenderer {
  const pool = createWorkerPool(SIGNING_WORKER, {
    timeoutMessage: 'No pudimos terminar de preparar tu documento a tiempo. Intenta de nuevo en un momento.',
    ...options,
  });
  const run = <T = RenderedPdf>(task: SigningTask, input: unknown) => pool.run<T>(task, input);
  return {
    unsigned: (input) => run('unsigned', input),
    signed: (unsigned, parties, signedAt, seal) => run('signed', { unsigned, parties, signedAt, seal }),
    credential: (source) => run<Credential>('credential', source),
    get stats() {
      return pool.stats;
    },
    close: () => pool.close(),
  };
}
