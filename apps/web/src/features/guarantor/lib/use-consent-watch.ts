import { useEffect, useState } from 'react';
import { ApiError } from '../../../shared/lib/api-client.js';
import { pollAvalValidation } from '../api/guarantor.js';

/** SPEC §4 validationResult while a session is watched: 'loading' until the first answer. */
export type WatchedResult = 'loading' | 'pending' | 'success' | 'error';

/** The first wait between two questions; each next one is half as long again, up to the longest. */
export const WATCH_FIRST_MS = 2_000;
export const WATCH_LONGEST_MS = 10_000;
export const nextWait = (ms: number) => Math.min(Math.round(ms * 1.5), WATCH_LONGEST_MS);

/**
 * Where the guarantor's remote consent stands, asked until it is known: soon after 'Aceptar
 * Consulta' (2 s, 3 s, 4.5 s … then every 10 s; the server writes the consent the moment the
 * message arrives and answers 'error' once the session expired), and at once whenever the person
 * comes back to the page from the messaging app. One question at a time.
 */
export function useConsentWatch(sessionId: string): WatchedResult {
  const [result, setResult] = useState<WatchedResult>('loading');
  useEffect(() => {
    if (!sessionId) return;
    let stopped = false;
    let asking = false;
    let wait = WATCH_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void ask(), ms);
    };
    const ask = async () => {
      if (stopped || asking) return;
      asking = true;
      try {
        const validation = await pollAvalValidation(sessionId);
        if (stopped) return;
        setResult(validation);
        if (validation !== 'pending') {
          stopped = true;
          return;
        }
      } catch (error) {
        if (stopped) return;
        // A refused session (unknown, malformed) will not get better; no answer (3G) is asked again.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
          stopped = true;
          setResult('error');
          return;
        }
      } finally {
        asking = false;
      }
      schedule(wait);
      wait = nextWait(wait);
    };
    const back = () => {
      if (stopped || document.visibilityState !== 'visible') return;
      wait = WATCH_FIRST_MS;
      if (!asking) void ask();
    };
    void ask();
    // Back on the page (the messaging app closed, the tab chosen again): the moment the message most likely went.
    window.addEventListener('focus', back);
    window.addEventListener('pageshow', back);
    document.addEventListener('visibilitychange', back);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('focus', back);
      window.removeEventListener('pageshow', back);
      document.removeEventListener('visibilitychange', back);
    };
  }, [sessionId]);
  return result;
}
