import { useEffect, useState } from 'react';
import { ApiError } from '../../../shared/lib/api-client.js';
import { retryAfterSeconds } from '../../../shared/lib/retry-after.js';
import { pollAvalValidation } from '../api/guarantor.js';

/** SPEC §4 validationResult while a session is watched: 'loading' until the first answer. */
export type WatchedResult = 'loading' | 'pending' | 'success' | 'error';

/** The first wait between two questions; each next one is half as long again, up to the longest. */
export const WATCH_FIRST_MS = 2_000;
export const WATCH_LONGEST_MS = 10_000;
export const nextWait = (ms: number) => Math.min(Math.round(ms * 1.5), WATCH_LONGEST_MS);
/** Questions in a row without an answer before the timer stops (coming back to the page still asks). */
export const WATCH_MAX_FAILURES = 30;
/** Coming back asks at once, but not more often than this (focus, pageshow and visibilitychange come together). */
const BACK_MIN_MS = 2_000;

/**
 * Where the guarantor's remote consent stands, asked until it is known: soon after 'Aceptar
 * Consulta' (2 s, 3 s, 4.5 s … then every 10 s; the server writes the consent the moment the
 * message arrives and answers 'error' once the session expired), and at once whenever the person
 * comes back to the page from the messaging app. One question at a time; none while the page is
 * hidden; never sooner than a 429 asks; the timer stops after WATCH_MAX_FAILURES questions in a
 * row without an answer (coming back asks again).
 */
export function useConsentWatch(sessionId: string): WatchedResult {
  // The answer with the session it is for: a new session (a new try) starts at 'loading', not as the last one ended.
  const [watched, setWatched] = useState<{ sessionId: string; result: WatchedResult }>({
    sessionId,
    result: 'loading',
  });
  useEffect(() => {
    if (!sessionId) return;
    const setResult = (result: WatchedResult) => setWatched({ sessionId, result });
    let stopped = false;
    let asking = false;
    let wait = WATCH_FIRST_MS;
    let failures = 0;
    let lastAsked = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      // While the page is hidden (the messaging app in front) nothing is asked: coming back asks.
      timer = setTimeout(() => document.visibilityState === 'visible' && void ask(), ms);
    };
    const ask = async () => {
      if (stopped || asking) return;
      asking = true;
      lastAsked = Date.now();
      let later = 0;
      try {
        const validation = await pollAvalValidation(sessionId);
        if (stopped) return;
        failures = 0;
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
        failures += 1;
        later = (retryAfterSeconds(error) ?? 0) * 1000;
      } finally {
        asking = false;
      }
      if (failures >= WATCH_MAX_FAILURES) return;
      schedule(Math.max(wait, later));
      wait = nextWait(wait);
    };
    const back = () => {
      if (stopped || document.visibilityState !== 'visible') return;
      wait = WATCH_FIRST_MS;
      if (asking) return;
      if (Date.now() - lastAsked >= BACK_MIN_MS) void ask();
      else schedule(BACK_MIN_MS);
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
  return watched.sessionId === sessionId ? watched.result : 'loading';
}
