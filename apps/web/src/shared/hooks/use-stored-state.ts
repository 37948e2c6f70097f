import { useEffect, useState } from 'react';
import { session } from '../lib/session.js';
import type { SessionKey } from '@provee/domain';

/** What a stored form says besides its values. */
export interface StoredForm<T> {
  /** A draft was stored when the screen opened (typed before a reload, a refused call…). */
  drafted: boolean;
  /** Shows `values` (e.g. what the server saved) without keeping them: only what is typed is kept. */
  adopt: (values: T) => void;
}

/**
 * Form state kept in sessionStorage under `key`, so a reload (or a refused call) never loses
 * what the shopkeeper typed. `initial` fills fields the stored copy does not have.
 */
export function useStoredState<T extends object>(
  key: SessionKey,
  initial: T,
): [T, (update: Partial<T>) => void, () => void, StoredForm<T>] {
  const [drafted] = useState(() => session.get(key) !== null);
  // Kept from the first change on (or as it was stored): opening a form stores nothing.
  const [form, setForm] = useState<{ value: T; typed: boolean }>(() => {
    try {
      const stored = session.get(key);
      return { value: stored ? { ...initial, ...(JSON.parse(stored) as Partial<T>) } : initial, typed: drafted };
    } catch {
      return { value: initial, typed: false };
    }
  });
  useEffect(() => {
    if (form.typed) session.set(key, JSON.stringify(form.value));
  }, [key, form]);
  return [
    form.value,
    (update) => setForm((current) => ({ value: { ...current.value, ...update }, typed: true })),
    () => session.remove(key),
    { drafted, adopt: (value) => setForm({ value, typed: false }) },
  ];
}
