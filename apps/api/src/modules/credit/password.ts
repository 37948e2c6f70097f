import { scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { createConcurrencyLimit } from '../../concurrency-limit.js';

/**
 * argon2id at OWASP's parameters (19 MiB, t=2, p=1) through @node-rs/argon2 (Rust, prebuilt):
 * 34 ms a hash on this 2-core machine where the `argon2` package took 71 ms and scrypt at 128 MiB
 * ~300 ms. The PHC string ("$argon2id$v=19$m=19456,t=2,p=1$…") carries its parameters, so they can
 * be raised later without losing old hashes.
 */
// `Algorithm` is a const enum, which this project's module settings cannot read at run time.
const ARGON2ID = 2 as Algorithm.Argon2id;
const ARGON2 = { algorithm: ARGON2ID, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** Accepts the argon2id hashes made now and the scrypt hashes stored before ("scrypt$N$r$p$salt$hash"). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2')) {
    try {
      return await verify(stored, password);
    } catch {
      return false; // a damaged stored hash is a wrong password, not a 500
    }
  }
  return verifyScrypt(password, stored);
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/** Hashing and verifying through one limit: at most `concurrency` at once, a bounded queue, then a 503. */
export function createPasswordHasher(limits: { concurrency: number; maxWaiting: number }): PasswordHasher {
  const limit = createConcurrencyLimit(limits.concurrency, limits.maxWaiting);
  return {
    hash: (password) => limit.run(() => hashPassword(password)),
    verify: (password, stored) => limit.run(() => verifyPassword(password, stored)),
  };
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options: ScryptOptions = { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 };
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, Buffer.from(salt, 'base64url'), expected.length, options, (error, derived) =>
      error ? reject(error) : resolve(derived),
    ),
  ).catch(() => undefined);
  return key !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}
