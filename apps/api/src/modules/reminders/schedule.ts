import { countryHour, getCountry, type CountryCode } from '@provee/domain';

/** No reminder goes out from 21:00 to 08:00 on the country's clocks. */
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 8;

export function inQuietHours(country: CountryCode, now: Date): boolean {
  const hour = countryHour(getCountry(country), now);
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

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
