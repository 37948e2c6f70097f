import { useEffect, useState } from 'react';
import { ApiError } from '../../../shared/lib/api-client.js';
import { pollWhileVisible } from '../../../shared/lib/visible-poll.js';
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
    return pollWhileVisible({
      ask: async (stopped) => {
        try {
          const validation = await pollAvalValidation(sessionId);
          if (!stopped.aborted) setResult(validation);
          return validation === 'pending' ? 'again' : 'done';
        } catch (error) {
          // A refused session (unknown, malformed) will not get better; no answer (3G) is asked again.
          if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
            if (!stopped.aborted) setResult('error');
            return 'done';
          }
          throw error;
        }
      },
      askAtOnce: true,
      firstWaitMs: WATCH_FIRST_MS,
      nextWait,
      maxFailures: WATCH_MAX_FAILURES,
      // Back on the page (the messaging app closed, the tab chosen again): the moment the message most likely went.
      backMinMs: BACK_MIN_MS,
    });
  }, [sessionId]);
  return watched.sessionId === sessionId ? watched.result : 'loading';
}
