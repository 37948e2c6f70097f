import { useEffect, useState } from 'react';
import { uiState } from '../lib/ui-state.js';

/** Catalogues change rarely: one answer per path for the life of the page. */
const cache = new Map<string, Promise<unknown>>();

export function loadOnce<T>(path: string, load: () => Promise<T>): Promise<T> {
  let pending = cache.get(path) as Promise<T> | undefined;
  if (!pending) {
    pending = load();
    cache.set(path, pending);
    pending.catch(() => cache.delete(path));
  }
  return pending;
}

/** An answer that came inside another one (a place carries its form's lists): kept as if `path` had answered it. */
export function remember<T>(path: string, answer: T): void {
  if (!cache.has(path)) cache.set(path, Promise.resolve(answer));
}

/** Data for a screen (the loader caches what should be cached); null `path` means "nothing to load yet". Errors go to the error modal. */
export function useApiData<T>(path: string | null, load: (path: string) => Promise<T>): T | undefined {
  const [state, setState] = useState<{ path: string; data: T } | undefined>();
  useEffect(() => {
    if (!path) return;
    let current = true;
    load(path)
      .then((data) => current && setState({ path, data }))
      .catch((error: unknown) => current && uiState.showError(error));
    return () => {
      current = false;
    };
    // `load` is a plain function of the path; the path alone decides what to fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);
  return state && state.path === path ? state.data : undefined;
}
