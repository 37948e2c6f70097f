import type { SessionKey } from '@provee/domain';

/** sessionStorage under the SPEC §3 keys; a browser that refuses storage just forgets. */
export const session = {
  get(key: SessionKey): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: SessionKey, value: string): void {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // Private mode or full storage: the flow still works, a reload just loses the value.
    }
  },
  remove(key: SessionKey): void {
    try {
      sessionStorage.removeItem(key);
    } catch {
      // see set()
    }
  },
};
