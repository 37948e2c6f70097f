import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { ASSETS_PREFIX } from './spa.js';

const MB = 2 ** 20;

/** What a shed request is told: the Spanish envelope, and when to come back (also as Retry-After). */
function overloaded(retryAfterSeconds: number): AppError {
  return new AppError(
    503,
    'BUSY',
    'server under pressure',
    'Hay muchas solicitudes en este momento. Intenta de nuevo en unos segundos.',
    { retry_after_seconds: retryAfterSeconds },
  );
}

/**
 * The web app itself: its hashed assets, its public files (@fastify/static's routes) and its pages
 * (the not-found handler's HTML, compressed once at start). Each is bytes already in memory or on
 * disk, no database; refusing one leaves the shopkeeper worse off than a slow answer: a screen whose
 * next chunk fails to load is broken, and a refused page shows the envelope's raw JSON. So they are
 * served under pressure too, and the API, whose calls the app answers with its Spanish message, sheds.
 */
function servesTheWebApp(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const { url, config } = request.routeOptions;
  return url === `${ASSETS_PREFIX}*` || (config as { file?: unknown }).file !== undefined || request.is404;
}

/**
 * Load shedding by the Fastify team's @fastify/under-pressure: once a second it samples the event
 * loop's delay, the heap and the resident memory; past a configured limit every request to the API
 * is refused at once (before its body is read) with a Spanish 503 and Retry-After, instead of
 * queueing work the process cannot finish in time. The web app's files and pages are still sent
 * (servesTheWebApp). /livez opts out (it says only that the process answers); /readyz says not ready
 * (modules/health). `app.isUnderPressure()` tells the same to the rest of the app.
 */
export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: config.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: config.PRESSURE_MAX_HEAP_USED_MB * MB,
    maxRssBytes: config.PRESSURE_MAX_RSS_MB * MB,
    // A rejected promise goes to the error handler, which writes the envelope and Retry-After.
    pressureHandler: async (request) => {
      if (!servesTheWebApp(request)) throw overloaded(config.PRESSURE_RETRY_AFTER_SECONDS);
    },
  });
}

/** A route's config that lets it answer under pressure (it reports the pressure itself). */
export const ANSWERS_UNDER_PRESSURE = { pressureHandler: () => undefined };
