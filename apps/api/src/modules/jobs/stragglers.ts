/**
 * What pg-boss 10 leaves running when its `stop()` returns, followed so that the queue's stop can
 * wait for it before the caller closes the database:
 * - a finished job's outcome (complete, fail): pg-boss writes it without awaiting it;
 * - a fetch in flight: its job is handed to a worker after the stop, and runs then.
 * A statement that failed because the database had closed would be an unhandled rejection inside
 * pg-boss (and the outcome lost). Once the wait is over, a statement pg-boss still makes (of a job
 * that outlived it) is never sent: its job stays active and, once expired, is tried again.
 */
export function followStragglers() {
  const statements = new Set<Promise<unknown>>();
  const runs = new Set<Promise<unknown>>();
  let closed = false;
  const follow = <T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> => {
    set.add(promise);
    const forget = () => set.delete(promise);
    promise.then(forget, forget);
    return promise;
  };
  return {
    /** pg-boss's statement, followed; never sent (and never settled) once `closeAfter` is done. */
    statement<T>(send: () => Promise<T>): Promise<T> {
      return closed ? new Promise<T>(() => {}) : follow(statements, send());
    },
    /** A job's run, followed. */
    run<T>(promise: Promise<T>): Promise<T> {
      return follow(runs, promise);
    },
    /**
     * After pg-boss's stop: waits (up to `maxMs`) until no statement or run is left across a turn of
     * the event loop (a fetch's answer starts its job's run, and a run's end its outcome's statement,
     * within the same turn), then lets no statement through.
     */
    async closeAfter(maxMs: number): Promise<void> {
      const deadline = Date.now() + maxMs;
      let timer: NodeJS.Timeout | undefined;
      const timeUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxMs).unref();
      });
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        if ((statements.size === 0 && runs.size === 0) || Date.now() >= deadline) break;
        await Promise.race([Promise.allSettled([...statements, ...runs]), timeUp]);
      }
      clearTimeout(timer);
      closed = true;
    },
  };
}
