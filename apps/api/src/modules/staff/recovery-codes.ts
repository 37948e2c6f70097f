import { createHmac, randomInt } from 'node:crypto';
import { STAFF_RECOVERY_CODE_COUNT } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { markRecoveryCodeUsed, replaceRecoveryCodes } from './factors.store.js';

/**
 * Ten single-use codes for a lost phone or key, shown once: 10 characters of Crockford's base32
 * (50 bits) as "XXXXX-XXXXX", stored as keyed hashes. Typed in any case, with or without the dash.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const normalise = (code: string) => code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');

const hashOf = (key: Buffer, code: string) => createHmac('sha256', key).update(normalise(code)).digest('hex');

function newCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** New codes replace every earlier one (used or not). Runs inside the caller's transaction. */
export async function issueRecoveryCodes(tx: Executor, key: Buffer, staffId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: STAFF_RECOVERY_CODE_COUNT }, newCode);
  await replaceRecoveryCodes(
    tx,
    staffId,
    codes.map((code) => hashOf(key, code)),
    now,
  );
  return codes;
}

/** Uses a code up; true when it was one of this person's and not used before (one guarded UPDATE). */
export async function useRecoveryCode(db: Executor, key: Buffer, staffId: string, code: string, now: Date) {
  if (normalise(code).length !== 10) return false;
  return markRecoveryCodeUsed(db, staffId, hashOf(key, code), now);
}
