import { useEffect } from 'react';

type IdleWindow = Window & { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number; cancelIdleCallback?: (handle: number) => void };

/**
 * Warms the next screen (app/prefetch.ts) while the user is on this one: as soon as the page is
 * idle after arrival, or at the first focus or input, whichever comes first.
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
    const handle = idle.requestIdleCallback ? idle.requestIdleCallback(run, { timeout: 1500 }) : window.setTimeout(run, 200);
    document.addEventListener('focusin', run);
    document.addEventListener('input', run);
    function stop() {
      if (idle.cancelIdleCallback) idle.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
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
