import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256: the fingerprint printed on each evidence page. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
