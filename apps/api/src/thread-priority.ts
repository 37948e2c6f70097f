import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How far below the event loop heavy work on untrusted data runs (Linux `nice`, per thread): the
 * PDF threads' `niceIncrement` and libvips' threads (docs/decisions/021). On a busy machine the
 * threads answering requests (the event loop, the embedded database's thread) are scheduled first.
 */
export const BACKGROUND_NICE_INCREMENT = 10;

const TASKS = '/proc/self/task';

/**
 * Lowers the priority of this process's threads whose name starts with `namePrefix` (a native
 * library's own threads, which Node cannot start at a lower priority) to the process's priority
 * plus {@link BACKGROUND_NICE_INCREMENT}. Threads already lowered are remembered and skipped; a
 * call reads the directory and the name of every other thread (~0.2 ms with 16 threads, on the
 * event loop). Linux only: where `/proc/self/task` is missing it does nothing.
 */
export function createThreadDemoter(namePrefix: string): () => void {
  const lowered = new Set<number>();
  let target: number | undefined;
  return function lowerNewThreads() {
    let tasks: string[];
    try {
      tasks = readdirSync(TASKS);
    } catch {
      return;
    }
    target ??= Math.min(19, getPriority() + BACKGROUND_NICE_INCREMENT);
    const alive = new Set<number>();
    for (const task of tasks) {
      const tid = Number(task);
      alive.add(tid);
      if (lowered.has(tid)) continue;
      try {
        if (!readFileSync(`${TASKS}/${task}/comm`, 'utf8').startsWith(namePrefix)) continue;
        setPriority(tid, target);
        lowered.add(tid);
      } catch {
        // The thread ended between the listing and the read: nothing to lower.
      }
    }
    // A thread id may be reused by a new thread once its thread ended.
    for (const tid of lowered) if (!alive.has(tid)) lowered.delete(tid);
  };
}
