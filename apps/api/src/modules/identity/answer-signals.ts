/**
 * Wake-ups for status requests waiting on a signer's answer (issue 27): the answer's writer calls
 * `answered(signerId)` once it has committed, and the waiting requests of this process look at the
 * database at once instead of at their next check. Only a hint: the database is the truth, and a
 * waiting request also looks every second (an answer written by another process).
 */
const waiting = new Map<string, Set<() => void>>();

export function answered(signerId: string): void {
  for (const wake of waiting.get(signerId) ?? []) wake();
}

/** Resolves after `ms`, when the signer's answer is written here, or when `signal` aborts. */
export function nextSignal(signerId: string, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const wakers = waiting.get(signerId) ?? new Set<() => void>();
    waiting.set(signerId, wakers);
    const wake = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wake);
      wakers.delete(wake);
      if (wakers.size === 0 && waiting.get(signerId) === wakers) waiting.delete(signerId);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal.addEventListener('abort', wake, { once: true });
    wakers.add(wake);
  });
}
