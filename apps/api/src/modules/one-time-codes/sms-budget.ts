import type { Config } from '../../config.js';
import type { Tx } from '../../db/client.js';
import { tooMany } from '../../errors.js';
import { lastSmsPerNumberFromIp, smsNumbersFromIp } from './proof-starts.store.js';

const HOUR_MS = 3_600_000;

/**
 * At most SMS_NUMBERS_PER_IP_PER_HOUR distinct numbers get an SMS from one IP in any hour
 * (docs/decisions/009): re-sending to a number already counted is left to the per-number caps.
 */
export async function assertSmsIpBudget(
  tx: Tx,
  config: Pick<Config, 'SMS_NUMBERS_PER_IP_PER_HOUR'>,
  ip: string,
  phoneE164: string,
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - HOUR_MS);
  const budget = await smsNumbersFromIp(tx, ip, phoneE164, since);
  if (budget.counted || budget.numbers < config.SMS_NUMBERS_PER_IP_PER_HOUR) return;
  const lastSends = await lastSmsPerNumberFromIp(tx, ip, since);
  // A slot frees when the number last sent to longest ago leaves the hour.
  const oldest = lastSends.length > 0 ? Math.min(...lastSends.map((last) => last.getTime())) : now.getTime();
  throw tooMany(
    'TOO_MANY_ATTEMPTS',
    (oldest + HOUR_MS - now.getTime()) / 1000,
    'Hiciste demasiados intentos desde esta conexión. Intenta de nuevo más tarde.',
  );
}
