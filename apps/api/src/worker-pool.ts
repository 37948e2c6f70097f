import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { AppError } from './errors.js';
import { API_ROOT } from './paths.js';
import { BACKGROUND_NICE_INCREMENT } from './thread-priority.js';

/**
 * CPU-heavy work on request data (a PDF built with pdf-lib) on worker threads, so it never holds
 * the event loop (issue 26, docs/decisions/021). A job has a time bound, waiting included: past it
 * its thread is stopped (terminated, whatever it was doing) and the caller gets a Spanish 503, so a
 * runaway job cannot freeze the process. At most `maxWaiting` jobs wait; one more is a 503 too.
 */
export interface WorkerPool {
  /** Runs `task` of the entry's module with `input` (structured-cloned; `transfer` moves buffers instead). */
  run<T>(task: string, input: unknown, transfer?: ArrayBuffer[]): Promise<T>;
  /** Jobs running and waiting, and the threads alive (for tests and logs). */
  readonly stats: { running: number; waiting: number; threads: number };
  /** Stops every thread; jobs still running or waiting are refused. */
  close(): Promise<void>;
}

/**
 * A worker module: its default export takes `{ task, input }`. `source` is its TypeScript file under
 * src/, `built` the file the build bundles it to in dist/ (scripts/build.mjs).
 */
export interface WorkerEntry {
  source: string;
  built: string;
}

export interface WorkerPoolOptions {
  threads: number;
  maxWaiting: number;
  timeoutMs: number;
  /** A thread's own JavaScript heap (a job past it stops that thread; answered like a timeout). */
  heapMb?: number;
  /** The Spanish readable_message of the 503 past the time bound (what the person waited for). */
  timeoutMessage?: string;
}

/**
 * The built server runs the bundled file; tests and scripts run the TypeScript source through
 * `worker-source.mjs`, which registers tsx inside the thread (Node 20 gives a worker no loader).
 */
function entryFile(entry: WorkerEntry): { filename: string; workerData?: { source: string } } {
  const built = join(API_ROOT, 'dist', entry.built);
  if (import.meta.url.endsWith('.js') && existsSync(built)) return { filename: built };
  return {
    filename: join(API_ROOT, 'src/worker-source.mjs'),
    workerData: { source: pathToFileURL(join(API_ROOT, 'src', entry.source)).href },
  };
}

const RETRY_AFTER_SECONDS = 5;

const timedOut = (readableMessage: string) =>
  new AppError(503, 'WORK_TIMEOUT', 'job took too long', readableMessage, {
    retry_after_seconds: RETRY_AFTER_SECONDS,
  });

const busy = () =>
  new AppError(
    503,
    'BUSY',
    'too many jobs waiting',
    'Hay muchas solicitudes en este momento. Intenta de nuevo en un minuto.',
    { retry_after_seconds: 60 },
  );

export function createWorkerPool(entry: WorkerEntry, options: WorkerPoolOptions): WorkerPool {
  const heapMb = options.heapMb ?? 256;
  const timeoutMessage =
    options.timeoutMessage ?? 'No pudimos terminar tu solicitud a tiempo. Intenta de nuevo en un momento.';
  const pool = new Piscina({
    ...entryFile(entry),
    // Threads start with the first job and stop after a minute without one (memory, issue 14).
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
    // Below the event loop's priority (Linux `nice`, per thread, through @napi-rs/nice): on a busy
    // machine the thread answering requests is scheduled first, a PDF build waits.
    niceIncrement: BACKGROUND_NICE_INCREMENT,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
  });
  let inFlight = 0;
  return {
    get stats() {
      return { running: inFlight - pool.queueSize, waiting: pool.queueSize, threads: pool.threads.length };
    },
    async run<T>(task: string, input: unknown, transfer: ArrayBuffer[] = []): Promise<T> {
      // Piscina's own queue limit lets a job more through while a thread starts or runs: counted here.
      if (inFlight >= options.threads + options.maxWaiting) throw busy();
      const signal = AbortSignal.timeout(options.timeoutMs);
      inFlight += 1;
      try {
        return (await pool.run({ task, input }, { signal, transferList: transfer })) as T;
      } catch (error) {
        const message = error instanceof Error ? error.message : '';
        if (signal.aborted || (error instanceof Error && error.name === 'AbortError')) throw timedOut(timeoutMessage);
        // The thread ran out of its heap or died: the job could not finish, like a timeout.
        const code = (error as { code?: unknown }).code;
        if (code === 'ERR_WORKER_OUT_OF_MEMORY' || message === 'Terminating worker thread')
          throw timedOut(timeoutMessage);
        throw error;
      } finally {
        inFlight -= 1;
      }
    },
    close: () => pool.destroy(),
  };
}
