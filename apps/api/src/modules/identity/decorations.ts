import type { ImageDecoder } from './decode.js';

// What app.ts decorates the Fastify instance with for this module.
declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded images (identity photos, signatures), decoded in full and encoded again off the event loop (decode.ts). */
    images: ImageDecoder;
  }
}
