import { useState } from 'react';
import type { BackofficeError } from '../api.js';
import { asBackofficeError } from './use-resource.js';

/** One form's call: pending while in flight, the error to show beside it, true when it went through. */
export function useSubmit() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<BackofficeError | string | null>(null);
  const submit = async (run: () => Promise<unknown>): Promise<boolean> => {
    setPending(true);
    setError(null);
    try {
      await run();
      return true;
    } catch (caught) {
      // A 401 already sent the user to the login; anything else is the screen's to show.
      setError(asBackofficeError(caught));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, setError, submit };
}
