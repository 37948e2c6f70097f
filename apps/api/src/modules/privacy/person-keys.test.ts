// Per-person data keys (issue 31, decision 032): one key per person, made once even under a race,
// wrapped by the application key; erasure destroys it; the application key rotates without
// re-encrypting any value; values written before (v1) still read.
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type AppCipher, createAppCipher } from '../../crypto.js';
import { loadConfig } from '../../config.js';
import { users } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { useTestApp } from '../../test/test-app.js';
import { describeApplicant } from '../users/index.js';
import { findPersonKey } from './person-keys.store.js';
import {
  PersonKeyDestroyedError,
  allLiveCiphers,
  destroyPersonKey,
  personCipher,
  rewrapPersonKeys,
} from './person-keys.js';

const hashKey = randomBytes(32);
const appCipher = (current: Buffer, previous: Buffer[] = []): { cipher: AppCipher } => ({
  cipher: createAppCipher(current, previous, hashKey),
});

/** Whether any cipher opens the value (text or bytes) to the plain value. */
function anyReads(ciphers: { decrypt(s: string): string }[], stored: string, plain: string): boolean {
  return ciphers.some((cipher) => {
    try {
      return cipher.decrypt(stored) === plain;
    } catch {
      return false;
    }
  });
}

describe('per-person data keys', () => {
  const t = useTestApp();
  const deps = () => ({ cipher: t.app.cipher });

  it("writes v2 values that only the person's own key reads, and keeps the application's lookup hash", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const cipherA = await personCipher(deps(), t.app.db, a);
    const cipherB = await personCipher(deps(), t.app.db, b);
    const stored = cipherA.encrypt('GODE561231HDFRRN09');
    const file = cipherA.encryptBytes(Buffer.from('%PDF-1.7 contrato'));

    expect(stored.startsWith('v2.')).toBe(true);
    expect(file[0]).toBe(2);
    expect((await personCipher(deps(), t.app.db, a)).decrypt(stored)).toBe('GODE561231HDFRRN09');
    expect((await personCipher(deps(), t.app.db, a)).decryptBytes(file).toString()).toBe('%PDF-1.7 contrato');
    expect(() => cipherB.decrypt(stored)).toThrow();
    expect(() => cipherB.decryptBytes(file)).toThrow();
    expect(() => t.app.cipher.decrypt(stored)).toThrow();
    expect(cipherA.lookupHash('MX:GODE561231HDFRRN09')).toBe(t.app.cipher.lookupHash('MX:GODE561231HDFRRN09'));
  });

  it('still reads what the application key wrote before per-person keys (v1)', async () => {
    const oldText = t.app.cipher.encrypt('1985-02-28');
    const oldFile = t.app.cipher.encryptBytes(Buffer.from('selfie'));
    const cipher = await personCipher(deps(), t.app.db, randomUUID());
    expect(cipher.decrypt(oldText)).toBe('1985-02-28');
    expect(cipher.decryptBytes(oldFile).toString()).toBe('selfie');
  });

  it("an applicant's fields written v1 before this change and v2 after both read through the applicant model", async () => {
    const user = await createApplication(t.app, { taxId: '00113918205', dob: '1985-02-28' });
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.taxIdEncrypted!.startsWith('v2.')).toBe(true);
    const read = async () => (await describeApplicant(t.app, user.id))!;
    expect((await read()).taxId?.canonical).toBe('00113918205');
    // As a row written before per-person keys holds them: the application key's v1.
    await t.app.db
      .update(users)
      .set({ taxIdEncrypted: t.app.cipher.encrypt('00113918205'), dobEncrypted: t.app.cipher.encrypt('1985-02-28') })
      .where(eq(users.id, user.id));
    expect((await read()).taxId?.canonical).toBe('00113918205');
    expect((await read()).person.birthDate).toBe('1985-02-28');
  });

  it('makes one key when several first uses race, in transactions or not', async () => {
    const person = randomUUID();
    const ciphers = await Promise.all([
      ...Array.from({ length: 4 }, () => personCipher(deps(), t.app.db, person)),
      ...Array.from({ length: 4 }, () => t.app.db.transaction((tx) => personCipher(deps(), tx, person))),
    ]);
    const stored = ciphers.map((cipher) => cipher.encrypt('00113918205'));
    for (const cipher of ciphers) for (const value of stored) expect(cipher.decrypt(value)).toBe('00113918205');
  });

  it('makes no key when the transaction that made it rolls back', async () => {
    const person = randomUUID();
    await expect(
      t.app.db.transaction(async (tx) => {
        await personCipher(deps(), tx, person);
        throw new Error('the step failed');
      }),
    ).rejects.toThrow('the step failed');
    expect(await findPersonKey(t.app.db, person)).toBeUndefined();
  });

  it('after destruction nothing left decrypts the person, and their cipher refuses clearly', async () => {
    const [erased, kept] = [randomUUID(), randomUUID()];
    const stored = (await personCipher(deps(), t.app.db, erased)).encrypt('Calle Duarte 12, Santiago');
    const file = (await personCipher(deps(), t.app.db, erased)).encryptBytes(Buffer.from('firma'));
    const keptValue = (await personCipher(deps(), t.app.db, kept)).encrypt('Calle Duarte 12, Santiago');

    await t.app.db.transaction((tx) => destroyPersonKey(tx, erased));
    await destroyPersonKey(t.app.db, erased); // twice: still destroyed, no error

    const row = await findPersonKey(t.app.db, erased);
    expect(row).toMatchObject({ wrappedKey: null, destroyedAt: expect.any(Date) });
    const live = await allLiveCiphers(deps(), t.app.db);
    expect(anyReads(live, stored, 'Calle Duarte 12, Santiago')).toBe(false);
    expect(live.every((cipher) => !safe(() => cipher.decryptBytes(file)))).toBe(true);
    expect(anyReads(live, keptValue, 'Calle Duarte 12, Santiago')).toBe(true);

    await expect(personCipher(deps(), t.app.db, erased)).rejects.toBeInstanceOf(PersonKeyDestroyedError);
    await expect(personCipher(deps(), t.app.db, erased)).rejects.toThrow(/destroyed/);
    // Whatever route reaches them answers a Spanish 410, not a 500.
    await expect(personCipher(deps(), t.app.db, erased)).rejects.toMatchObject({
      statusCode: 410,
      code: 'PERSON_ERASED',
      readableMessage: expect.stringMatching(/^Estos datos se eliminaron/),
    });
  });

  it('gives a person erased before they had a key a tombstone, never a fresh key later', async () => {
    const person = randomUUID();
    await destroyPersonKey(t.app.db, person);
    await expect(personCipher(deps(), t.app.db, person)).rejects.toBeInstanceOf(PersonKeyDestroyedError);
    expect(await findPersonKey(t.app.db, person)).toMatchObject({ wrappedKey: null });
  });

  it('rotates the application key: re-wraps every key, old values still read, the old key is no longer needed', async () => {
    // The old key is the app's own: every key the other tests made is under it, as in a real rotation.
    const [oldKey, newKey] = [t.app.cipher.keys.current.key, randomBytes(32)];
    const person = randomUUID();
    const before = appCipher(oldKey);
    const value = (await personCipher(before, t.app.db, person)).encrypt('1990-01-31');
    const erased = randomUUID();
    await personCipher(before, t.app.db, erased);
    await destroyPersonKey(t.app.db, erased);

    // Rotation: the new key is current, the old one only opens until the re-wrap.
    const during = appCipher(newKey, [oldKey]);
    expect((await personCipher(during, t.app.db, person)).decrypt(value)).toBe('1990-01-31');
    expect(await rewrapPersonKeys(during, t.app.db, 2)).toBeGreaterThanOrEqual(1);
    expect(await rewrapPersonKeys(during, t.app.db)).toBe(0);
    expect((await findPersonKey(t.app.db, person))?.wrappedBy).toBe(during.cipher.keys.current.id);
    expect((await findPersonKey(t.app.db, erased))?.wrappedKey).toBeNull();

    const after = appCipher(newKey);
    expect((await personCipher(after, t.app.db, person)).decrypt(value)).toBe('1990-01-31');
    // Without the re-wrap the old key would still be needed: a key it wrapped says so clearly.
    const notRewrapped = randomUUID();
    await personCipher(appCipher(oldKey), t.app.db, notRewrapped);
    await expect(personCipher(after, t.app.db, notRewrapped)).rejects.toThrow(/not configured/);
    // Back under the app's key, for whatever runs next on this database.
    expect(await rewrapPersonKeys(appCipher(oldKey, [newKey]), t.app.db)).toBeGreaterThanOrEqual(1);
  });

  it('reads the previous application keys from the configuration, and refuses a malformed one in Spanish', () => {
    const previous = randomBytes(32).toString('base64');
    const config = loadConfig({ NODE_ENV: 'test', DATA_ENCRYPTION_PREVIOUS_KEYS: ` ${previous} ,` });
    expect(config.DATA_ENCRYPTION_PREVIOUS_KEYS).toEqual([previous]);
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_ENCRYPTION_PREVIOUS_KEYS: 'corta' })).toThrow(
      /32 bytes en base64/,
    );
  });
});

function safe(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}
