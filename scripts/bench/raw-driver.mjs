// The raw-driver limits of `npm run bench`, in a process of its own (pinned like the server): each
// endpoint's main query run in a loop with the driver alone, no HTTP, no ORM (issue 14: "the raw
// driver running each endpoint's main query in a loop"). Issue 35: the limit is how the product
// runs the query.
// - PostgreSQL (postgres.js, prepared statements as the app's driver uses them): `pool`,
//   RAW_CONCURRENCY loops over a pool of that size, as many queries in flight as the product's pool
//   (the limit); `loop`, one query in flight (the limit before issue 35, printed beside it).
// - PGlite (the server's data directory opened in this process): `prepared`, the query as a named
//   prepared statement, run as the product's database thread runs it (the limit); `loop`, PGlite's
//   own `query()`, which parses and plans the text on every call (the limit before issue 35).
// PostgreSQL with RAW_DATABASE_CORE: its backends moved to that core before each loop, as during the
// product's runs (pin-database.mjs).
// Input: RAW_QUERIES (JSON [{ name, sql, params }]), RAW_SECONDS, RAW_CONCURRENCY, RAW_DATABASE_CORE,
// and DATABASE_URL or PGLITE_DIR. Output (stdout): JSON { [name]: { loop, pool?, prepared? } }, each
// { rate: queries per second, cpu: µs of this process's CPU per query, database?: µs of the
// PostgreSQL backends' CPU per query (a database on this machine) }.
import { databaseCpu, pinDatabaseBackends } from './pin-database.mjs';

const queries = JSON.parse(process.env.RAW_QUERIES);
const seconds = Number(process.env.RAW_SECONDS ?? 10);
const concurrency = Number(process.env.RAW_CONCURRENCY ?? 10);

async function open() {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(process.env.DATABASE_URL, { max: concurrency, onnotice: () => {} });
    // Its own connection: pinDatabaseBackends moves, and databaseCpu counts, every backend but the one it asks on.
    const own = postgres(process.env.DATABASE_URL, { max: 1 });
    // Prepared statements, as the app's driver uses them.
    return {
      pool: true,
      run: (text, params) => sql.unsafe(text, params, { prepare: true }),
      beforeLoop: async () => {
        if (process.env.RAW_DATABASE_CORE) await pinDatabaseBackends(own, process.env.RAW_DATABASE_CORE);
      },
      databaseCpu: () => databaseCpu(own),
      close: () => Promise.all([sql.end(), own.end()]),
    };
  }
  const { PGlite, parse, protocol } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create(process.env.PGLITE_DIR, { extensions: { pg_trgm } });
  // The same query as a named prepared statement, run as the product's database thread runs it
  // (pglite-worker.ts: Bind, Execute and Sync in one call, the row description kept): printed, not the limit.
  const exchange = (...frames) => {
    const replies = [];
    new protocol.Parser().parse(db.execProtocolRawSync(Buffer.concat(frames)), (reply) => replies.push(reply));
    return replies;
  };
  const { serialize } = protocol;
  const statements = new Map();
  const prepared = (text, params) =>
    db.runExclusive(async () => {
      let statement = statements.get(text);
      if (!statement) {
        const name = `raw_${statements.size}`;
        const replies = exchange(
          serialize.parse({ name, text }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        );
        statement = { name, row: replies.find((reply) => reply.name === 'rowDescription') };
        statements.set(text, statement);
      }
      const replies = exchange(
        serialize.bind({ statement: statement.name, values: params.map(String) }),
        serialize.execute({}),
        serialize.sync(),
      );
      return parse.parseResults([statement.row, ...replies], db.parsers)[0];
    });
  return { pool: false, run: (text, params) => db.query(text, params), prepared, close: () => db.close() };
}

const driver = await open();

/** Queries per second of `loops` loops running `sql` for `seconds`, and this process's CPU per query. */
async function rate(sql, params, loops, run = driver.run) {
  await driver.beforeLoop?.();
  const databaseBefore = await driver.databaseCpu?.();
  const cpuBefore = process.cpuUsage();
  let count = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      await run(sql, params);
      count++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: loops }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const database = driver.databaseCpu ? ((await driver.databaseCpu()) - databaseBefore) / count : undefined;
  return { rate: count / elapsed, cpu: (cpu.user + cpu.system) / count, database };
}

const result = {};
for (const { name, sql, params } of queries) {
  // Warm-up: plans cached, pages in memory.
  for (let i = 0; i < 200; i++) await driver.run(sql, params);
  result[name] = { loop: await rate(sql, params, 1) };
  if (driver.pool) result[name].pool = await rate(sql, params, concurrency);
  if (driver.prepared) result[name].prepared = await rate(sql, params, 1, driver.prepared);
}
await driver.close();
process.stdout.write(JSON.stringify(result));
