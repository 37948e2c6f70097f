import type { JobQueue } from './queue.js';

// What app.ts decorates the Fastify instance with for this module.
declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue on the product's database (decision 029). */
    jobs: JobQueue;
  }
}
