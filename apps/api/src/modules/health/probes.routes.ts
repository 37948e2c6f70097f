import type { App } from '../../types.js';
import { ANSWERS_UNDER_PRESSURE } from '../../plugins/external/load-shedding.js';
import { envelope } from '../../errors.js';
import { checkReadiness } from './readiness.js';

const NOT_READY_RETRY_SECONDS = 5;

/**
 * The probes an orchestrator or a balancer asks (docs/OPERATIONS.md), outside the API's prefix and
 * its rate limits, never shed. /livez: the process answers (restart it if not). /readyz: it can
 * take work (send it none if not); a 503 carries the Spanish envelope and which check failed.
 */
export async function probeRoutes(app: App): Promise<void> {
  const probe = { logLevel: 'warn' as const, schema: { hide: true }, config: { rateLimit: false as const } };

  app.get('/livez', { ...probe, config: { ...probe.config, ...ANSWERS_UNDER_PRESSURE } }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/readyz', { ...probe, config: { ...probe.config, ...ANSWERS_UNDER_PRESSURE } }, async (request, reply) => {
    const readiness = await checkReadiness(app.db, {
      jobsRunning: app.jobs.running,
      underPressure: app.isUnderPressure(),
    });
    if (readiness.ready) return { status: 'ready' as const, checks: readiness.checks };
    request.log.warn({ checks: readiness.checks }, 'not ready');
    return reply
      .status(503)
      .header('retry-after', NOT_READY_RETRY_SECONDS)
      .send({
        ...envelope(
          'NOT_READY',
          'El servicio aún no está listo.',
          'El servicio no está disponible por el momento. Intenta de nuevo en unos segundos.',
        ),
        checks: readiness.checks,
      });
  });
}
