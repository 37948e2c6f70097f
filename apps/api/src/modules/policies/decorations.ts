import type { PolicyBook } from './policy-book.js';

// What app.ts decorates the Fastify instance with for this module.
declare module 'fastify' {
  interface FastifyInstance {
    /** The credit policy's live version (and shadow), read from the database at each use. */
    policies: PolicyBook;
  }
}
