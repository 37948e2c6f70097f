import { REVIEW_COUNTDOWN_SECONDS, REVIEW_FIRST_POLL_AT_SECONDS, REVIEW_POLL_EVERY_SECONDS } from '@provee/domain';

export { REVIEW_COUNTDOWN_SECONDS };

/** SPEC §4: the seconds left at which the review screen asks for the verifier's answer (270, 240, … 30). */
export const REVIEW_POLL_POINTS: readonly number[] = Array.from(
  { length: Math.ceil(REVIEW_FIRST_POLL_AT_SECONDS / REVIEW_POLL_EVERY_SECONDS) },
  (_, i) => REVIEW_FIRST_POLL_AT_SECONDS - i * REVIEW_POLL_EVERY_SECONDS,
);

/**
 * Whether the countdown, going from `before` to `now` seconds left, passed a poll point. A clock
 * that jumps (a sleeping phone, a test's fast-forward) asks once for all the points it skipped;
 * at 0 nobody asks: time is up.
 */
export function isPollDue(before: number, now: number): boolean {
  return now > 0 && REVIEW_POLL_POINTS.some((point) => before > point && now <= point);
}

/** 300 → '5:00', 59 → '0:59'. */
export function formatMinutes(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
