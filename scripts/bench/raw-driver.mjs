// The raw-driver limit of `npm run bench`, in a process of its own (pinned like the server): each
// endpoint's main query run in a loop with the driver alone, no HTTP, no ORM. PGlite: the server's
// data directory opened in this process, one query at a time (PGlite is one connection).
// PostgreSQL: postgres.js with the server's pool size, as many loops as the load has connections.
// Input: RAW_QUERIES (JSON [{ name, sql, params }]), RAW_SECONDS, RAW_CONCURRENCY, and DATABASE_URL
// or PGLITE_DIR. Output (stdout): JSON { [name]: queries per second }.
const queries = JSON.parse(process.env.RAW_QUERIES);
const seconds = Number(process.env.RAW_SECONDS ?? 10);
const concurrency = Number(process.env.RAW_CONCURRENCY ?? 10);

async function open() {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });
    // Prepared statements, as the app's driver uses them.
    return {
      loops: concurrency,
      run: (text, params) => sql.unsafe(text, params, { prepare: true }),
      close: () => sql.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create(process.env.PGLITE_DIR, { extensions: { pg_trgm } });
  return { loops: 1, run: (text, params) => db.query(text, params), close: () => db.close() };
}

const driver = await open();
const result = {};
for (const { name, sql, params } of queries) {
  // Warm-up: plans cached, pages in memory.
  for (let i = 0; i < 200; i++) await driver.run(sql, params);
  let count = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      await driver.run(sql, params);
      count++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: driver.loops }, loop));
  result[name] = count / ((performance.now() - started) / 1000);
}
await driver.close();
process.stdout.write(JSON.stringify(result));
