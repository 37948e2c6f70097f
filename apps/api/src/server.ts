import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { copyInitialDatabase } from './db/initial-database.js';
import { prepareDatabase } from './prepare-database.js';
import { collectGarbageWhenIdle } from './idle-gc.js';
import { PolicyError } from './modules/credit/policy.js';

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
  const app = await buildApp(config, database);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal while stopping: exiting now');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A graceful stop waits for the requests in flight; one that never ends (a client that stops
    // sending its body) or a database that does not answer must not keep the process alive: past
    // SHUTDOWN_TIMEOUT_MS it exits anyway, non-zero (issue 26).
    setTimeout(() => {
      app.log.error({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'graceful stop took too long: exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    // Fastify closes the connections idle when the stop begins; a keep-alive connection whose
    // request was still running becomes idle later and would hold the stop until its keep-alive
    // timeout (72 s): closed as soon as it is idle.
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
    try {
      await app.close();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'graceful stop failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

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
