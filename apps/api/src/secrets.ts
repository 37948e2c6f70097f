import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from './config.js';

/**
 * The one application secret, and the keys derived from it for each use (tokens, code hashes,
 * webhook signatures…), so one leaked derived key says nothing about the others.
 * Outside production, a secret is generated under DATA_DIR on first start and kept there.
 */
export interface Secrets {
  key(
    purpose:
      | 'tokens'
      | 'codes'
      | 'reverse-otp-webhook'
      | 'data-encryption'
      | 'lookup-hash'
      | 'audit-phone'
      | 'identity-metadata'
      | 'staff-session'
      | 'staff-login'
      | 'staff-recovery-codes'
      | 'staff-sso'
      | 'partner-keys'
      | 'message-webhooks',
  ): Buffer;
}

function loadRootSecret(config: Config): Buffer {
  if (config.APP_SECRET) return Buffer.from(config.APP_SECRET, 'utf8');
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process starting at the same moment wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}

export function createSecrets(config: Config, root: Buffer = loadRootSecret(config)): Secrets {
  const cache = new Map<string, Buffer>();
  return {
    key(purpose) {
      let derived = cache.get(purpose);
      if (!derived) {
        derived = Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `provee:${purpose}`, 32));
        cache.set(purpose, derived);
      }
      return derived;
    },
  };
}
