import { AppError } from './errors.js';

export interface ConcurrencyLimit {
  /** Runs the task when one of the slots is free; waits in a queue meanwhile. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now and tasks waiting (for tests and logs). */
  readonly running: number;
  readonly waiting: number;
}

/**
 * At most `concurrency` tasks at once, at most `maxWaiting` waiting; one more is a Spanish 503.
 * CPU-heavy work (password hashing) on libuv's 4 threads would otherwise take every thread and
 * starve file reads and DNS; the bounded queue keeps waits (and memory) bounded under a burst.
 */
export function createConcurrencyLimit(concurrency: number, maxWaiting: number): ConcurrencyLimit {
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else if (queue.length >= maxWaiting) throw busy();
      // A released slot passes straight to the next in line, so `running` stays counted.
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

function busy(): AppError {
  return new AppError(
    503,
    'BUSY',
    'too many requests waiting',
    'Hay muchas solicitudes en este momento. Intenta de nuevo en un minuto.',
    { retry_after_seconds: 60 },
  );
}
