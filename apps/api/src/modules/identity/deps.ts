import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { AppCipher } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import type { Secrets } from '../../secrets.js';
import type { ImageDecoder } from './decode.js';

/**
 * What identity verification uses, never the Fastify instance: each service function takes the
 * part it needs (`Pick<IdentityDeps, …>`), and the routes build the whole with identityDeps(app).
 */
export interface IdentityDeps {
  db: Db;
  clock: () => Date;
  config: Config;
  /** Photos at rest are encrypted; the simulator reads the signer's tax id. */
  cipher: AppCipher;
  /** The key of the signer proof MetaMap's button carries (external-check.ts). */
  secrets: Secrets;
  /** Photos decoded and encoded again off the event loop (decode.ts). */
  images: ImageDecoder;
}

export function identityDeps(app: FastifyInstance): IdentityDeps {
  return {
    db: app.db,
    clock: app.clock,
    config: app.config,
    cipher: app.cipher,
    secrets: app.secrets,
    images: app.images,
  };
}
