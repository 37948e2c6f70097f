import { useCallback, useEffect, useState } from 'react';
import { BackofficeError } from '../api.js';

export interface Resource<T> {
  /** The last answer for this key (kept on screen while a reload is on its way). */
  data: T | undefined;
  error: BackofficeError | undefined;
  loading: boolean;
  reload: () => void;
}

export const asBackofficeError = (error: unknown) =>
  error instanceof BackofficeError ? error : new BackofficeError(0, 'UNEXPECTED', 'Algo salió mal. Intenta de nuevo.');

/** Data for a screen, fetched again whenever `key` changes or `reload` is called; null loads nothing. */
export function useResource<T>(key: string | null, load: () => Promise<T>): Resource<T> {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ key: string; version: number; data?: T; error?: BackofficeError }>();

  useEffect(() => {
    if (key === null) return;
    let current = true;
    load().then(
      (data) => current && setState({ key, version, data }),
      (error: unknown) => current && setState({ key, version, error: asBackofficeError(error) }),
    );
    return () => {
      current = false;
    };
    // `load` is a function of the key: the key alone decides what to fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const same = state !== undefined && state.key === key;
  return {
    data: same ? state.data : undefined,
    error: same && state.version === version ? state.error : undefined,
    loading: key !== null && (!same || state.version !== version),
    reload,
  };
}
