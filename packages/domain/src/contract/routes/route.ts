import type { Method } from '../call.js';

/**
 * A call's route, its method and path typed to the letter (`CallOf` finds the call by them). Zod-free
 * like every route, so the web imports it; a route the web does not use is left out of its bundle.
 */
export function route<const M extends Method, const P extends string>(method: M, path: P) {
  return { method, path } as const;
}
