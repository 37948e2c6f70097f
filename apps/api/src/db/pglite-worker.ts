// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs every query
// synchronously on the thread that owns it, so it lives here and the HTTP thread stays free
// (docs/decisions/012). The protocol is the one of `pglite-thread.ts`: queries, and transactions held
// open between a 'begin' and an 'end' while PGlite's own lock keeps every other query waiting.
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { messages, parse, PGlite, protocol, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ThreadReply, ThreadRequest, WireError } from './pglite-thread.js';

// PostgreSQL's WebAssembly compiled by V8's baseline compiler only (Liftoff), set before PGlite
// compiles it (the flag is the process's; no other code here is WebAssembly). Measured on this
// machine (docs/PERFORMANCE.md, memory; decision 012): the optimising tier kept ~60–80 MB of
// compiler memory in the process for good and added ~160 ms to the database's start; without it
// PGlite's reads are ~8% slower.
setFlagsFromString('--liftoff-only');

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (see pglite-thread.ts)');

const { location, loadDataDir } = workerData as { location: string; loadDataDir?: Uint8Array };
// A copy of a prepared database (tests start from one instead of initdb, migrations and seed).
// shared_buffers: PostgreSQL's default of 128 MB is WebAssembly memory this process keeps for good;
// the operating system already caches the data files PGlite reads (docs/PERFORMANCE.md, memory).
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
// pg_trgm: the back office's name search runs on a trigram index (migration 0033, issue 35).
const db = new PGlite(location, {
  startParams,
  extensions: { pg_trgm },
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
});

interface OpenTransaction {
  end(commit: boolean): void;
  /** Settles when PGlite has run COMMIT (or ROLLBACK) and released its lock. */
  done: Promise<void>;
}
const open = new Map<number, OpenTransaction>();
let lastTransaction = 0;
const ROLLBACK = Symbol('rollback');

type Parser = (value: string, typeId?: number) => unknown;
const asText: Parser = (value) => value;

/**
 * The types Drizzle's PGlite driver asks, with every query, to have as PostgreSQL's text (dates,
 * timestamps, intervals, numeric[]: its session's `parsers`). PGlite merges a query's `parsers`
 * into a copy of its whole table (~350 parsers, with the array types) on every query: measured,
 * 0.13 ms of each query here. They are set on the instance once instead (`installed`), and a query
 * that asks for exactly these passes none.
 */
const DRIZZLE_TEXT_TYPES = [1082, 1114, 1115, 1182, 1184, 1185, 1186, 1187, 1231];
const DRIZZLE_KEY = DRIZZLE_TEXT_TYPES.join(',');
const installed = db.waitReady.then(() => {
  // A type with no parser of PGlite's comes as text anyway.
  const defaults = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((type) => [type, db.parsers[type] ?? asText]));
  for (const type of DRIZZLE_TEXT_TYPES) db.parsers[type] = asText;
  return defaults;
});
// A database that does not open is reported by 'ready' (and by each query that waits for it).
installed.catch(() => undefined);

/**
 * The parsers a query passes for the types the caller wants as text (`rawTypes`): none for
 * Drizzle's own set; otherwise the instance's table put back as PGlite has it, then `rawTypes` as text.
 */
const queryParsers = new Map<string, Record<number, Parser> | undefined>();
async function parsersFor(rawTypes: number[]) {
  const key = [...rawTypes].sort((a, b) => a - b).join(',');
  if (!queryParsers.has(key)) {
    const defaults = await installed;
    queryParsers.set(
      key,
      key === DRIZZLE_KEY ? undefined : { ...defaults, ...Object.fromEntries(rawTypes.map((type) => [type, asText])) },
    );
  }
  return queryParsers.get(key);
}

/**
 * Named prepared statements. PGlite's own `query()` has PostgreSQL parse, describe and plan the text
 * on every call, in six calls into it (Parse, Describe, Bind, Describe, Execute, Sync). Here a text is
 * parsed and described once, its parameter types and row description kept, and every later call is
 * one call with Bind, Execute and Sync; PostgreSQL keeps the plan as it does for the app's prepared
 * statements on a PostgreSQL server (postgres.js, `prepare: true`). Measured on this machine, the
 * user detail's query: ~1,750 a second with `query()`, ~5,300 prepared (docs/PERFORMANCE.md).
 * The STATEMENTS_KEPT texts used last are kept; an older one is closed.
 */
interface Statement {
  name: string;
  paramTypes: number[];
  /** Its RowDescription, or none for a statement that returns no rows. */
  row: messages.BackendMessage | undefined;
}
const STATEMENTS_KEPT = 200;
const statements = new Map<string, Statement>();
let lastStatement = 0;
const { serialize } = protocol;
/** PostgreSQL's type OID for bytea. */
const BYTEA = 17;

/** One call into PostgreSQL with these protocol messages (the last is Sync); throws its error. */
function exchange(sql: string, ...frames: Uint8Array[]): messages.BackendMessage[] {
  const replies: messages.BackendMessage[] = [];
  new protocol.Parser().parse(db.execProtocolRawSync(Buffer.concat(frames)), (reply) => replies.push(reply));
  const error = replies.find((reply) => reply instanceof messages.DatabaseError);
  // As PGlite's `query()` reports it: the statement travels with the error (the logs leave it out).
  if (error) throw Object.assign(error, { query: sql });
  return replies;
}

/** The statement prepared for `sql` (prepared now if it is new or was closed). */
function prepared(sql: string): Statement {
  const kept = statements.get(sql);
  if (kept) {
    // Used last: kept longest.
    statements.delete(sql);
    statements.set(sql, kept);
    return kept;
  }
  const name = `provee_${++lastStatement}`;
  const replies = exchange(
    sql,
    serialize.parse({ name, text: sql }),
    serialize.describe({ type: 'S', name }),
    serialize.sync(),
  );
  const statement: Statement = {
    name,
    paramTypes: parse.parseDescribeStatementResults(replies),
    row: replies.find((reply) => reply.name === 'rowDescription'),
  };
  statements.set(sql, statement);
  if (statements.size > STATEMENTS_KEPT) forget(statements.keys().next().value!);
  return statement;
}

/** Closes the statement prepared for `sql` (PostgreSQL frees its plan) and forgets it. */
function forget(sql: string): void {
  const statement = statements.get(sql);
  if (!statement) return;
  statements.delete(sql);
  try {
    exchange(sql, serialize.close({ type: 'S', name: statement.name }), serialize.sync());
  } catch {
    // Refused inside a failed transaction: the statement stays prepared, unused.
  }
}

/**
 * A query through its prepared statement. Parameters are serialised as PGlite's `query()` does
 * (by the type PostgreSQL gave each), rows parsed by the same function. A statement PostgreSQL no
 * longer has, or whose rows changed shape after a schema change, is forgotten and prepared again:
 * at once for a query on its own, by the next call inside a transaction (which the error aborted).
 */
function runPrepared(
  sql: string,
  params: unknown[],
  rowMode: 'array' | 'object',
  parsers: Record<number, Parser> | undefined,
  inTransaction: boolean,
  retry = true,
): Results {
  const statement = prepared(sql);
  const values = params.map((value, index) => {
    if (value === null || value === undefined) return null;
    // bytea's binary format is the bytes themselves: no hex text (twice the size) to write and parse.
    if (statement.paramTypes[index] === BYTEA && value instanceof Uint8Array) return value;
    const serializer = db.serializers[statement.paramTypes[index]!];
    return serializer ? serializer(value) : String(value);
  });
  let replies: messages.BackendMessage[];
  try {
    replies = exchange(
      sql,
      serialize.bind({ statement: statement.name, values }),
      serialize.execute({}),
      serialize.sync(),
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 26000: no such statement; 0A000: "cached plan must not change result type".
    if (code !== '26000' && code !== '0A000') throw error;
    forget(sql);
    // Inside a transaction the error has already aborted it; on its own, the query ran nothing.
    if (inTransaction || !retry) throw error;
    return runPrepared(sql, params, rowMode, parsers, false, false);
  }
  const [result] = parse.parseResults(statement.row ? [statement.row, ...replies] : replies, db.parsers, {
    rowMode,
    ...(parsers ? { parsers } : {}),
  });
  return result!;
}

/**
 * A query on its own (PGlite's lock for transactions, then for queries, as its `query()` takes
 * them) or inside an open transaction (which holds the first lock already).
 */
async function query(request: Extract<ThreadRequest, { op: 'query' }>) {
  const parsers = await parsersFor(request.rawTypes);
  const run = () => {
    // As PGlite's own `query()` refuses once `close()` has run.
    if (db.closed) throw new Error('PGlite is closed');
    return runPrepared(request.sql, request.params, request.rowMode, parsers, request.tx !== undefined);
  };
  if (request.tx !== undefined) {
    if (!open.has(request.tx)) throw new Error(`no open transaction ${request.tx}`);
    return db._runExclusiveQuery(async () => run());
  }
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      const result = run();
      await db.syncToFs();
      return result;
    }),
  );
}

/** Several statements without parameters (the simple query protocol), on their own: the last one's rows. */
async function exec(sql: string) {
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      if (db.closed) throw new Error('PGlite is closed');
      const results = parse.parseResults(exchange(sql, serialize.query(sql)), db.parsers, { rowMode: 'object' });
      await db.syncToFs();
      const last = results.at(-1);
      return { rows: last?.rows ?? [], fields: last?.fields ?? [], affectedRows: last?.affectedRows };
    }),
  );
}

/** A `COPY … TO '/dev/blob'` on its own (PGlite's `query()` takes its locks): the bytes it wrote. */
async function copyToBytes(sql: string): Promise<Uint8Array> {
  if (db.closed) throw new Error('PGlite is closed');
  // No rows, no blob.
  const { blob } = await db.query(sql);
  return blob ? new Uint8Array(await blob.arrayBuffer()) : new Uint8Array(0);
}

/** An error as data: its message and its primitive fields (code, constraint, detail…), nothing else. */
function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean;
  }
  return { name: error.name, message: error.message, fields };
}

function begin(): Promise<number> {
  const id = ++lastTransaction;
  return new Promise((started, failed) => {
    const done = db
      .transaction(
        () =>
          new Promise<void>((commit, rollback) => {
            open.set(id, { end: (yes) => (yes ? commit() : rollback(ROLLBACK)), done });
            started(id);
          }),
      )
      .catch((error: unknown) => {
        if (error === ROLLBACK) return;
        if (!open.has(id)) failed(error); // BEGIN itself failed
        throw error;
      });
    // Until 'end' asks for it, an error here is reported by `finish`.
    done.catch(() => undefined);
  });
}

async function finish(id: number, commit: boolean): Promise<void> {
  const transaction = open.get(id);
  if (!transaction) throw new Error(`no open transaction ${id}`);
  transaction.end(commit);
  try {
    await transaction.done;
  } finally {
    open.delete(id);
  }
}

async function handle(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'ready':
      await db.waitReady;
      return null;
    case 'query': {
      const result = await query(request);
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return exec(request.sql);
    case 'copy':
      return copyToBytes(request.sql);
    case 'begin':
      return begin();
    case 'end':
      await finish(request.tx, request.commit);
      return null;
    case 'dump':
      return new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    case 'close':
      await db.close();
      return null;
  }
}

port.on('message', (request: ThreadRequest) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies ThreadReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: toWire(error) } satisfies ThreadReply),
  );
});
