/**
 * What became of a message's first try, for the request that enqueued it and waits (sms-job.ts).
 * In-process only, a hint: the job's row is the truth, and a try run by another process is simply
 * not heard of here (the request stops waiting and the message follows from the queue).
 */
export type FirstTry = 'sent' | 'failed' | 'dropped' | 'queued';

const waiting = new Map<string, (outcome: FirstTry) => void>();
/** Outcomes no request waited for yet (the worker can be quicker than the request that woke it). */
const settled = new Map<string, FirstTry>();
const KEEP_SETTLED_MS = 60_000;

/** The first try of job `jobId` ended so. */
export function settleFirstTry(jobId: string, outcome: FirstTry): void {
  const wake = waiting.get(jobId);
  if (wake) return wake(outcome);
  settled.set(jobId, outcome);
  setTimeout(() => settled.delete(jobId), KEEP_SETTLED_MS).unref();
}

/** The first try's outcome, or 'queued' when it is not known here within `ms`. */
export function firstTry(jobId: string, ms: number): Promise<FirstTry> {
  const known = settled.get(jobId);
  if (known) {
    settled.delete(jobId);
    return Promise.resolve(known);
  }
  if (ms <= 0) return Promise.resolve('queued');
  return new Promise((resolve) => {
    const end = (outcome: FirstTry) => {
      clearTimeout(timer);
      waiting.delete(jobId);
      resolve(outcome);
    };
    const timer = setTimeout(() => end('queued'), ms);
    waiting.set(jobId, end);
  });
}
