import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { copyInitialDatabase } from './db/initial-database.js';
import { prepareDatabase } from './prepare-database.js';
import { collectGarbageWhenIdle } from './idle-gc.js';
import { PolicyError } from './modules/policies/index.js';
import { startTracing } from './observability/tracing.js';
import { withTimeout } from './with-timeout.js';

/** How long a graceful stop waits for the buffered spans to reach the collector. */
const TRACES_FLUSH_MS = 2_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Before anything is built: OpenTelemetry, when the OTEL_* variables ask for traces (decision 036).
  const tracing = await startTracing(process.env);
  const open = () =>
    openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      onStop: (error) => {
        console.error('La base de datos integrada se detuvo; el servidor se cierra:', error);
        process.exit(1);
      },
    });
  // A first start on the embedded database begins from the one the build prepared (db/initial-database.ts).
  if (!config.DATABASE_URL) copyInitialDatabase(config.DATA_DIR);
  let database = open();
  const { seeded } = await prepareDatabase(database);
  if (seeded && database.kind === 'pglite') {
    // Without a built copy, or with a newer shipped catalogue: loading the catalogue grows PGlite's
    // WebAssembly memory for good while its thread lives; serve from a new thread (issue 14).
    await database.close();
    database = open();
  }
  const app = await buildApp(config, database, { tracing });

  // SIGTERM/SIGINT (and an uncaught error): stop taking connections, let the requests in flight and
  // the running jobs finish (app.close: the queue's grace, then the database), exit 0; past
  // SHUTDOWN_TIMEOUT_MS exit 1 anyway; a second signal exits at once. The Fastify team's
  // close-with-grace (docs/OPERATIONS.md).
  closeWithGrace(
    {
      delay: config.SHUTDOWN_TIMEOUT_MS,
      // The signals of a crash (a native module's fault) or a debugger keep their default: a
      // listener on them can leave a crashed process hanging, and SIGQUIT keeps its core dump.
      skip: ['SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGSEGV', 'SIGUSR2'],
      logger: {
        error: (message: unknown) =>
          message instanceof Error
            ? app.log.error({ err: message }, 'graceful stop failed')
            : app.log.error(`graceful stop: ${String(message)}`),
      },
    },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'uncaught error: stopping');
      app.log.info({ signal }, 'shutting down');
      // Fastify closes the connections idle when the stop begins; a keep-alive connection whose
      // request was still running becomes idle later and would hold the stop until its keep-alive
      // timeout (72 s): closed as soon as it is idle (issue 26).
      setInterval(() => app.server.closeIdleConnections(), 100).unref();
      await app.close();
      await database.close();
      // The spans of the last requests and jobs still buffered go out before the exit, if the
      // collector answers soon: an unreachable one must not hold the stop to its deadline.
      if (tracing)
        await withTimeout(tracing.shutdown(), TRACES_FLUSH_MS).catch((error: unknown) =>
          app.log.warn({ err: error }, 'traces not flushed'),
        );
    },
  );

  await app.listen({ host: config.HOST, port: config.PORT });
  collectGarbageWhenIdle(({ before, after }) =>
    app.log.info(
      { heapMb: { before: Math.round(before / 2 ** 20), after: Math.round(after / 2 ** 20) } },
      'idle: heap collected',
    ),
  );
}

main().catch((error: unknown) => {
  if (error instanceof PolicyError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error('No se pudo iniciar el servidor:', error);
  process.exit(1);
});
