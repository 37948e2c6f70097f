/**
 * The reminder due now for an applicant who stopped at `stoppedAt`: the highest number whose delay
 * has passed, if above the highest already sent (one that came due during quiet hours, or while the
 * service was down, is not sent late next to its successor). Null when none is due.
 */
export function dueReminder(input: {
  stoppedAt: Date;
  now: Date;
  delaysMinutes: readonly number[];
  lastSent: number;
}): number | null {
  const elapsedMinutes = (input.now.getTime() - input.stoppedAt.getTime()) / 60_000;
  let due = 0;
  input.delaysMinutes.forEach((delay, index) => {
    if (elapsedMinutes >= delay) due = index + 1;
  });
  return due > input.lastSent ? due : null;
}
