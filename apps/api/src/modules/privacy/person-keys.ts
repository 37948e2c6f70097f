import { randomBytes } from 'node:crypto';
import { type AppCipher, type FieldCipher, createPersonFieldCipher, unwrapDataKey, wrapDataKey } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import {
  type PersonKeyRow,
  destroyPersonKeyRow,
  findPersonKey,
  insertPersonKeyIfAbsent,
  liveKeys,
  keysNotWrappedBy,
  replaceWrapping,
} from './person-keys.store.js';

/**
 * Envelope encryption (decision 032): each person — a shopkeeper (users.id) or a guarantor
 * (avals.id) — has a 32-byte data key, wrapped by the application key. Their personal fields and
 * files are encrypted with it ("v2"), so destroying the key makes every copy in the database
 * unreadable at once, wherever it was copied to. A backup taken before still holds the wrapped key:
 * backups must expire within the erasure term (docs/decisions/032).
 */
export type PersonKeyDeps = { cipher: AppCipher };

/** The person was erased: their key is gone and none will ever be made again for that id. */
export class PersonKeyDestroyedError extends AppError {
  constructor(readonly personId: string) {
    // A route that reaches an erased person answers 410, never a 500: the data is gone on purpose.
    super(
      410,
      'PERSON_ERASED',
      `the data key of person ${personId} was destroyed (erased); their data can no longer be read or written`,
      'Estos datos se eliminaron a petición de su titular o por el plazo de conservación.',
    );
    this.name = 'PersonKeyDestroyedError';
  }
}

function unwrap(deps: PersonKeyDeps, row: PersonKeyRow): Buffer {
  if (row.wrappedKey === null) throw new PersonKeyDestroyedError(row.personId);
  const { current, previous } = deps.cipher.keys;
  const appKey = [current, ...previous].find((key) => key.id === row.wrappedBy);
  if (!appKey)
    throw new Error(
      `the data key of person ${row.personId} is wrapped by application key ${row.wrappedBy}, not configured`,
    );
  return unwrapDataKey(appKey.key, row.wrappedKey, row.personId);
}

/**
 * The person's cipher, making their key on first use. Two first uses at once both insert
 * "on conflict do nothing" then read, so both end with the one key that was written first.
 * `db` may be the caller's transaction (the key then commits, or not, with the data it encrypts).
 */
export async function personCipher(deps: PersonKeyDeps, db: Executor, personId: string): Promise<FieldCipher> {
  let row = await findPersonKey(db, personId);
  if (!row) {
    const { current } = deps.cipher.keys;
    const wrappedKey = wrapDataKey(current.key, randomBytes(32), personId);
    await insertPersonKeyIfAbsent(db, { personId, wrappedKey, wrappedBy: current.id });
    row = await findPersonKey(db, personId);
    if (!row) throw new Error(`the data key of person ${personId} could not be stored`);
  }
  return createPersonFieldCipher(unwrap(deps, row), deps.cipher);
}

/**
 * Erases the person's key: every v2 value of theirs becomes unreadable. Idempotent; a person with
 * no key yet gets a tombstone, so a later personCipher refuses instead of starting afresh.
 * Values written before per-person keys (v1) are NOT covered: erasure must clear those columns.
 */
export async function destroyPersonKey(db: Executor, personId: string, at: Date = new Date()): Promise<void> {
  // wrapped_by of a tombstone names no key; it only keeps the column not null.
  await destroyPersonKeyRow(db, personId, 'destroyed', at);
}

/**
 * Every cipher that can still read something: each live person's, then the application's (v1).
 * For the privacy tests: nothing left in the database may decrypt to an erased person's values.
 */
export async function allLiveCiphers(deps: PersonKeyDeps, db: Executor): Promise<FieldCipher[]> {
  const rows = await liveKeys(db);
  return [...rows.map((row) => createPersonFieldCipher(unwrap(deps, row), deps.cipher)), deps.cipher];
}

/**
 * After a rotation of the application key: re-wraps every live data key under the current key
 * (the data itself is not touched). When it answers, the previous keys are needed only by v1
 * values written under them. Safe to run twice or beside other writers.
 */
export async function rewrapPersonKeys(deps: PersonKeyDeps, db: Executor, batch = 500): Promise<number> {
  const { current } = deps.cipher.keys;
  let rewrapped = 0;
  for (;;) {
    const rows = await keysNotWrappedBy(db, current.id, batch);
    if (rows.length === 0) return rewrapped;
    for (const row of rows) {
      const wrappedKey = wrapDataKey(current.key, unwrap(deps, row), row.personId);
      // A row another run re-wrapped (or an erasure destroyed) meanwhile no longer matches: skipped.
      if (await replaceWrapping(db, row, { wrappedKey, wrappedBy: current.id })) rewrapped += 1;
    }
  }
}
