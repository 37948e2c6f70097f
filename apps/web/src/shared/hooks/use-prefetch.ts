import { useEffect } from 'react';

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** How long a screen shows before warming the next one unasked: its own arrival goes first. */
const ARRIVAL_MS = 1000;

/**
 * Warms the next screen (app/prefetch.ts) while the user is on this one: at the first focus or
 * input, or once the page is idle a second after arrival, whichever comes first. (Not at once: the
 * screen just shown loads what it needs first, on 3G every request competes.)
 */
export function usePrefetch(next: (() => void) | undefined): void {
  useEffect(() => {
    if (!next) return;
    const idle = window as IdleWindow;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      stop();
      next();
    };
    let handle: number | undefined;
    const timer = window.setTimeout(() => {
      handle = idle.requestIdleCallback ? idle.requestIdleCallback(run, { timeout: ARRIVAL_MS }) : undefined;
      if (handle === undefined) run();
    }, ARRIVAL_MS);
    document.addEventListener('focusin', run);
    document.addEventListener('input', run);
    function stop() {
      window.clearTimeout(timer);
      if (handle !== undefined) idle.cancelIdleCallback?.(handle);
      document.removeEventListener('focusin', run);
      document.removeEventListener('input', run);
    }
    return stop;
  }, [next]);
}

/** A step screen's props: what the router gives it to warm (app/prefetch.ts). */
export interface NextProps {
  next?: (() => void) | undefined;
}
