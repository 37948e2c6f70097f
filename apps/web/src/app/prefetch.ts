/**
 * What a step screen warms while the user is on it: the next screen's chunk (its lazy import) and
 * the catalogue data that screen shows on arrival, so that Continuar costs one round trip (the
 * save). The router owns the lazy imports, so it builds these and hands them to the screens as
 * their `next` prop (features never import each other).
 */
export type Prefetch = () => void;

/** Runs the loads once (later calls are no-ops); a failure is ignored: the screen loads it again on arrival. */
export function prefetch(...loads: (() => Promise<unknown>)[]): Prefetch {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    for (const load of loads) {
      try {
        load().catch(() => {
          started = false;
        });
      } catch {
        started = false;
      }
    }
  };
}
