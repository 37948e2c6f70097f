import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { API_ROOT } from '../paths.js';
import { observedStatement } from './observed-statements.js';

/**
 * PGlite on its own thread (docs/decisions/012), shaped like the part of PGlite that Drizzle's
 * PGlite driver uses (`query`, `transaction`), so the same driver runs unchanged. Every call is a
 * message to `pglite-worker.ts`; a transaction stays open there between 'begin' and 'end', and
 * PGlite's own lock keeps other queries waiting meanwhile, as it does in-process.
 */
type Message =
  | { op: 'ready' }
  | {
      op: 'query';
      tx?: number;
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      rawTypes: number[];
    }
  | { op: 'exec'; sql: string }
  | { op: 'copy'; sql: string }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump' }
  | { op: 'close' };
export type ThreadRequest = Message & { id: number };

export interface WireError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}
export type ThreadReply = { id: number } & ({ ok: true; value: unknown } | { ok: false; error: WireError });

interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}
interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Drizzle passes identity parsers (keep the text) for the types it maps itself. */
  parsers?: Record<number, unknown>;
}
export interface Queryable {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
}

/** A database error from the thread: the same message and fields (code, constraint, detail…). */
export class EmbeddedDatabaseError extends Error {
  constructor(wire: WireError) {
    super(wire.message);
    Object.assign(this, wire.fields);
    this.name = wire.name;
  }
}

/**
 * The database thread's JavaScript makes short-lived objects only (each answer's rows, until they
 * are posted): a young generation of 8 MB instead of V8's default 32 MB, which a busy thread fills
 * and keeps resident (docs/PERFORMANCE.md, memory).
 */
const resourceLimits = { maxYoungGenerationSizeMb: 8 };

/**
 * The worker: the bundled file next to the built server; in tests (TypeScript sources), the source
 * through tsx's loader, registered inside the worker (Node 20 ignores `--import` for a worker's entry).
 */
function startWorker(workerData: { location: string; loadDataDir?: Uint8Array }): Worker {
  const built = join(API_ROOT, 'dist/pglite-worker.js');
  if (import.meta.url.endsWith('.js') && existsSync(built)) return new Worker(built, { workerData, resourceLimits });
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = pathToFileURL(join(API_ROOT, 'src/db/pglite-worker.ts')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}

export class PgliteThread implements Queryable {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  /** Queries sent to the thread and not answered yet. */
  get waiting(): number {
    return this.pending.size;
  }
  private lastId = 0;
  private stopped: Error | undefined;

  /**
   * `location`: PGlite's data directory, or `memory://`; `loadDataDir`: start from a copy made by
   * `dump()`; `onStop`: the thread ended without `close()`.
   */
  constructor(location: string, options: { loadDataDir?: Uint8Array; onStop?: (error: Error) => void } = {}) {
    const { loadDataDir, onStop } = options;
    this.worker = startWorker({ location, ...(loadDataDir ? { loadDataDir } : {}) });
    this.worker.on('message', (reply: ThreadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new EmbeddedDatabaseError(reply.error));
    });
    const stop = (error: Error) => {
      if (this.stopped) return;
      this.stopped = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      onStop?.(error);
    };
    this.worker.on('error', (error) => stop(error));
    this.worker.on('exit', (code) => stop(new Error(`the embedded database thread stopped (exit code ${code})`)));
  }

  private call(request: Message): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Resolves once the database has opened (and recovered, after a crash). */
  async ready(): Promise<void> {
    await this.call({ op: 'ready' });
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<QueryResult> {
    return observedStatement(
      sql,
      () =>
        this.call({
          op: 'query',
          sql,
          params,
          tx,
          rowMode: options.rowMode ?? 'object',
          rawTypes: Object.keys(options.parsers ?? {}).map(Number),
        }) as Promise<QueryResult>,
    );
  }

  /**
   * Statements without parameters, several in one text (PostgreSQL's simple query), on their own:
   * a job library's maintenance scripts (BEGIN; …; COMMIT). The last statement's rows.
   */
  exec(sql: string): Promise<QueryResult> {
    return observedStatement(sql, () => this.call({ op: 'exec', sql }) as Promise<QueryResult>);
  }

  /**
   * A `COPY (select …) TO '/dev/blob'` on its own: what it wrote, as bytes (PGlite has no COPY
   * stream: the caller keeps each COPY to a page of rows).
   */
  copyToBytes(sql: string): Promise<Uint8Array> {
    return observedStatement(sql, () => this.call({ op: 'copy', sql }) as Promise<Uint8Array>);
  }

  async transaction<T>(callback: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = (await this.call({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await callback({ query: (sql, params, options) => this.query(sql, params, options, tx) });
    } catch (error) {
      await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  /** The whole database as a tarball (`loadDataDir` of a new thread starts from it). */
  async dump(): Promise<Uint8Array> {
    return (await this.call({ op: 'dump' })) as Uint8Array;
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    await this.call({ op: 'close' });
    this.stopped = new Error('the embedded database is closed');
    await this.worker.terminate();
  }
}
