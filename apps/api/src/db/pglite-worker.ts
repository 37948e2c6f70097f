// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs every query
// synchronously on the thread that owns it, so it lives here and the HTTP thread stays free
// (docs/decisions/012). The protocol is the one of `pglite-thread.ts`: queries, and transactions held
// open between a 'begin' and an 'end' while PGlite's own lock keeps every other query waiting.
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
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
const db = new PGlite(location, { startParams, ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}) });

interface OpenTransaction {
  tx: Transaction;
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
        (tx) =>
          new Promise<void>((commit, rollback) => {
            open.set(id, { tx, end: (yes) => (yes ? commit() : rollback(ROLLBACK)), done });
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
      const target = request.tx === undefined ? db : open.get(request.tx)?.tx;
      if (!target) throw new Error(`no open transaction ${request.tx}`);
      const parsers = await parsersFor(request.rawTypes);
      const result = await target.query(request.sql, request.params, {
        rowMode: request.rowMode,
        ...(parsers ? { parsers } : {}),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
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
