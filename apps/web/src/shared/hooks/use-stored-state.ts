import { useEffect, useState } from 'react';
import { session } from '../lib/session.js';
import type { SessionKey } from '@provee/domain';

/**
 * Form state kept in sessionStorage under `key`, so a reload (or a refused call) never loses
 * what the shopkeeper typed. `initial` fills fields the stored copy does not have.
 */
export function useStoredState<T extends object>(
  key: SessionKey,
  initial: T,
): [T, (update: Partial<T>) => void, () => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = session.get(key);
      return stored ? { ...initial, ...(JSON.parse(stored) as Partial<T>) } : initial;
    } catch {
      return initial;
    }
  });
  useEffect(() => {
    session.set(key, JSON.stringify(value));
  }, [key, value]);
  return [value, (update) => setValue((current) => ({ ...current, ...update })), () => session.remove(key)];
}
