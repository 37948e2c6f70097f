import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False on the server and while React hydrates the prerendered landing, true from then on (and at
 * once on a screen that was not prerendered). What only the browser knows (sessionStorage) shows
 * from the render after hydration, so the first render matches the server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
