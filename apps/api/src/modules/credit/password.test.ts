import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { createPasswordHasher, hashPassword, verifyPassword } from './password.js';

// Made by the `argon2` package this app used before @node-rs/argon2, for '583920'.
const STORED_ARGON2 =
  '$argon2id$v=19$m=19456,p=1,t=2$H05AykzO2c8Toi7ndpuf2A$juYgibDayKZYxkB+H2TvpqMQGvueWR8Ll8FNpKLkaOI';
// Made by the scrypt hashing this app used before argon2id (N=2^17, r=8, p=1), for '583920'.
const STORED_SCRYPT = 'scrypt$131072$8$1$Zo5viWD_9lrZEkf0y-YuUw$JDtts37CwbyPcCVH5fN1odrOYRY7j3EmoInHp7luERg';

describe('password hashing', () => {
  it('hashes with argon2id at OWASP parameters (19 MiB, t=2, p=1), salted', async () => {
    const [first, second] = await Promise.all([hashPassword('583920'), hashPassword('583920')]);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]{22}\$[\w+/]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('583920', first)).toBe(true);
    expect(await verifyPassword('583921', first)).toBe(false);
  });

  it('still verifies an argon2id hash made by the previous library', async () => {
    expect(await verifyPassword('583920', STORED_ARGON2)).toBe(true);
    expect(await verifyPassword('583921', STORED_ARGON2)).toBe(false);
  });

  it('still verifies a scrypt hash stored before the change', async () => {
    expect(await verifyPassword('583920', STORED_SCRYPT)).toBe(true);
    expect(await verifyPassword('583921', STORED_SCRYPT)).toBe(false);
  });

  it('a damaged or unknown stored value is a wrong password, not an error', async () => {
    const good = await hashPassword('583920');
    for (const stored of [
      '',
      'bcrypt$x',
      good.slice(0, 30),
      '$argon2id$v=19$m=19456,t=2,p=1$AAAA$',
      'scrypt$131072$8$1$$',
    ]) {
      expect(await verifyPassword('583920', stored)).toBe(false);
    }
  });

  it('past the queue, a hash is refused with a Spanish 503 without hashing', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, maxWaiting: 1 });
    const running = hasher.hash('583920');
    const waiting = hasher.hash('583920');
    const refused = await hasher.hash('583920').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      statusCode: 503,
      code: 'BUSY',
      readableMessage: 'Hay muchas solicitudes en este momento. Intenta de nuevo en un minuto.',
    });
    expect(await verifyPassword('583920', await running)).toBe(true);
    expect(await hasher.verify('583920', await waiting)).toBe(true);
    expect(await hasher.verify('583920', STORED_SCRYPT)).toBe(true);
  });
});
