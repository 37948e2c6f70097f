import { retryAfterSeconds } from './retry-after.js';

export interface VisiblePoll {
  /**
   * One question to the server: 'done' ends the watch, 'again' asks again after the wait. A throw is
   * a question without an answer (no connection, a 429, a 5xx): counted, and asked again. The signal
   * says the watch was stopped meanwhile (the screen went away): change nothing then.
   */
  ask: (signal: AbortSignal) => Promise<'done' | 'again'>;
  /** The wait after the first question; each next one is `nextWait` of the one before (the same by default). */
  firstWaitMs: number;
  nextWait?: (ms: number) => number;
  /** The first question at once (else after the first wait). */
  askAtOnce?: boolean;
  /** Questions in a row without an answer before the timer stops (coming back to the page still asks). */
  maxFailures: number;
  /** Coming back asks at once, but not sooner than this after the last question. */
  backMinMs: number;
}

/**
 * Asks the server where something stands until it is known, while the page is in view: one question
 * at a time; none while the page is hidden (a timer that fires then asks nothing, and coming back —
 * focus, pageshow, visibilitychange — asks at once and starts the waits over); never sooner than a
 * 429's Retry-After; the timer stops after `maxFailures` questions in a row without an answer.
 * Answers the function that stops it.
 */
export function pollWhileVisible({
  ask,
  firstWaitMs,
  nextWait = (ms) => ms,
  askAtOnce = false,
  maxFailures,
  backMinMs,
}: VisiblePoll): () => void {
  const stop = new AbortController();
  let asking = false;
  let wait = firstWaitMs;
  let failures = 0;
  let lastAsked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const visible = () => document.visibilityState === 'visible';

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => visible() && void question(), ms);
  };
  const question = async () => {
    if (stop.signal.aborted || asking) return;
    asking = true;
    lastAsked = Date.now();
    let later = 0;
    try {
      const answer = await ask(stop.signal);
      if (stop.signal.aborted) return;
      failures = 0;
      if (answer === 'done') {
        stop.abort();
        return;
      }
    } catch (error) {
      if (stop.signal.aborted) return;
      failures += 1;
      later = (retryAfterSeconds(error) ?? 0) * 1000;
    } finally {
      asking = false;
    }
    if (failures >= maxFailures) return;
    schedule(Math.max(wait, later));
    wait = nextWait(wait);
  };
  const back = () => {
    if (stop.signal.aborted || !visible()) return;
    wait = firstWaitMs;
    if (asking) return;
    if (Date.now() - lastAsked >= backMinMs) void question();
    else schedule(backMinMs);
  };

  if (askAtOnce) void question();
  else {
    lastAsked = Date.now();
    schedule(wait);
    wait = nextWait(wait);
  }
  window.addEventListener('focus', back);
  window.addEventListener('pageshow', back);
  document.addEventListener('visibilitychange', back);
  return () => {
    stop.abort();
    clearTimeout(timer);
    window.removeEventListener('focus', back);
    window.removeEventListener('pageshow', back);
    document.removeEventListener('visibilitychange', back);
  };
}
