import { Session } from 'node:inspector';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** How often the server looks, and how idle its event loop must have been since the last look. */
export const CHECK_MS = 5_000;
export const IDLE_UTILIZATION = 0.05;
/** Heap grown this much beyond what the last full collection left: worth a collection when idle. */
export const GROWTH_BYTES = 16 * 1024 * 1024;

export interface IdleGcProbe {
  /** The share of the time since the last call that the event loop was busy (0–1). */
  busy(): number;
  heapBytes(): number;
  collect(): Promise<void>;
}

/**
 * A burst of requests (200 journeys at once) promotes their short-lived objects to V8's old space,
 * which then grows by ~60 MB; V8 (Node 20) collects it only when it next needs room, so an idle
 * server kept that garbage resident (RSS ~290 MiB where ~230 would do, issue 14; decision 020).
 * Once the event loop has been idle for a whole check and the heap has grown by GROWTH_BYTES since
 * the last full collection (and at the first idle check after start), this runs one (20–60 ms,
 * when nobody waits for it) and reports the heap's size before and after to `onCollected`.
 * Returns the stop function.
 */
export function collectGarbageWhenIdle(
  onCollected: (heap: { before: number; after: number }) => void = () => {},
  probe: IdleGcProbe = heapProbe(),
): () => void {
  let baseline = 0; // the first idle moment also collects what starting the server left
  let collecting = false;
  probe.busy();
  const timer = setInterval(() => {
    if (collecting) return;
    const heap = probe.heapBytes();
    if (probe.busy() > IDLE_UTILIZATION || heap - baseline < GROWTH_BYTES) {
      baseline = Math.min(baseline, heap); // V8's own collections lower the mark too
      return;
    }
    collecting = true;
    probe.collect().then(
      () => {
        collecting = false;
        baseline = probe.heapBytes();
        onCollected({ before: heap, after: baseline });
      },
      () => clearInterval(timer), // no way to collect here: V8 keeps its own schedule
    );
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The process's own event loop and V8 heap. */
export function heapProbe(): IdleGcProbe {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    busy() {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, last);
      last = now;
      return since.utilization;
    },
    heapBytes: () => getHeapStatistics().total_heap_size,
    collect() {
      // V8's "collect all available garbage" (what a memory-pressure notice does): unlike a plain
      // full collection, it hands the freed pages back to the system at once. Asked through an
      // in-process inspector session, connected until V8 has run it (a task of the event loop).
      // The session is closed after the answer's callback has returned: closing it inside the
      // callback waits on a lock V8 still holds there, and the process hangs.
      // A Node built without the inspector throws here: the promise rejects and the checks stop.
      return new Promise<void>((resolve, reject) => {
        const session = new Session();
        session.connect();
        session.post('HeapProfiler.collectGarbage', (error) =>
          setImmediate(() => {
            session.disconnect();
            if (error) reject(error);
            else resolve();
          }),
        );
      });
    },
  };
}
