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

/**
 * What the review screen is handed as it opens (issue 27), kept in the tab's history, so a reload
 * finds it again: when its countdown ends (this phone's clock, refined by the server's answer) and
 * the check it is not waiting for (the one before the photos were sent; null: none).
 */
export interface ReviewArrival {
  deadline: number;
  previous: string | null;
}

/** The arrival of a check that starts now. */
export const reviewArrival = (previous: string | null): { review: ReviewArrival } => ({
  review: { deadline: Date.now() + REVIEW_COUNTDOWN_SECONDS * 1000, previous },
});

/** The arrival in a history entry's state, if it has one. */
export function arrivalOf(state: unknown): ReviewArrival | null {
  const review = (state as { review?: Partial<ReviewArrival> } | null)?.review;
  if (!review || typeof review.deadline !== 'number') return null;
  return { deadline: review.deadline, previous: typeof review.previous === 'string' ? review.previous : null };
}

/** Whole seconds until `deadline` (never below 0, never above the SPEC's 300). */
export const secondsUntil = (deadline: number, now = Date.now()) =>
  Math.max(0, Math.min(REVIEW_COUNTDOWN_SECONDS, Math.ceil((deadline - now) / 1000)));
