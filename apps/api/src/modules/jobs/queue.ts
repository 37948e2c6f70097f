import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { JOB_SCHEMA } from './jobs.store.js';

/** How long a queue that could not start (its database unreachable) waits before trying again. */
const START_RETRY_MS = 5_000;

/**
 * A kind of job: how many times it is tried again after the first (the pause before the first
 * retry is JOB_RETRY_DELAY_SECONDS, doubled for each next one) and how long one run may take.
 */
export interface JobKind<T> {
  name: string;
  retryLimit: number;
  expireInSeconds: number;
  /** Runs the job; throwing has it tried again, or ends it as failed once `last` was the last try. */
  run(data: T, attempt: { retry: number; last: boolean }): Promise<void>;
}

export interface JobQueue {
  /** A kind this process knows (to enqueue) and runs (when its workers run); before `start`. */
  define<T>(kind: JobKind<T>): void;
  /**
   * Enqueues a job in the caller's transaction (the transactional outbox): it exists only if the
   * change that announces it commits, and is done only once that change is there to read.
   */
  enqueue<T extends object>(tx: Executor, name: string, data: T): Promise<void>;
  /** After the enqueuing transaction committed: this process's worker of `name` looks now, not at its next poll. */
  wake(name: string): void;
  /** Starts the queue and, unless JOB_POLL_INTERVAL_MS is 0, this process's workers. */
  start(): Promise<void>;
  /** Stops fetching, waits for the running jobs (up to JOB_STOP_GRACE_MS), then stops. */
  stop(): Promise<void>;
}

/**
 * A value as node-postgres sends it, which pg-boss is written for: an object (a job's data, a
 * queue's options) as its JSON; postgres.js and PGlite take dates, arrays and the rest as they are.
 */
function pgValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object' || value instanceof Date || Array.isArray(value)) return value;
  return Buffer.isBuffer(value) ? value : JSON.stringify(value);
}

/**
 * A query of pg-boss's (`$1`…) as Drizzle SQL, so it runs in the caller's transaction on either
 * driver: each `$n` becomes a parameter with the n-th value.
 */
function drizzleSql(text: string, values: unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    // An option pg-boss leaves unset is undefined, which Drizzle would leave out: SQL's NULL.
    chunks.push(sql`${pgValue(values[Number(match[1]) - 1])}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

const rowsOf = (result: unknown): unknown[] =>
  Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);

/**
 * The job queue: pg-boss on the product's database, PostgreSQL or PGlite alike (decision 029): it
 * talks to the database through `executeSql` (ours), never a connection of its own.
 */
export function createJobQueue(
  database: Database,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  options: { pollMs: number; retryDelaySeconds: number; graceMs: number },
): JobQueue {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values?.map(pgValue)) },
    schema: JOB_SCHEMA,
    migrate: false,
    // Maintenance (expiring, archiving, deleting old jobs) from any process; one at a time (its lock).
    supervise: true,
    schedule: false,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  const kinds = new Map<string, JobKind<never>>();
  const workers = new Map<string, string>();
  let started = false;
  let stopping = false;
  let retryTimer: NodeJS.Timeout | undefined;

  /** pg-boss, each kind's queue (its retry options as configured now) and this process's workers. */
  async function startQueue() {
    await boss.start();
    for (const kind of kinds.values()) {
      const queue = {
        name: kind.name,
        retryLimit: kind.retryLimit,
        retryDelay: options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: kind.expireInSeconds,
      };
      await boss.createQueue(kind.name, queue);
      await boss.updateQueue(kind.name, queue);
      if (options.pollMs > 0 && !workers.has(kind.name)) {
        const polling = { pollingIntervalSeconds: Math.max(0.5, options.pollMs / 1000) };
        workers.set(
          kind.name,
          await boss.work(kind.name, { ...polling, includeMetadata: true, batchSize: 1 }, runner(kind)),
        );
      }
    }
  }

  /** One job of `kind`: a failure is logged by its kind and id (never its data) and thrown for pg-boss to retry. */
  const runner =
    (kind: JobKind<never>) =>
    async ([job]: PgBoss.JobWithMetadata<object>[]) => {
      if (!job) return;
      const retry = job.retryCount;
      try {
        await kind.run(job.data as never, { retry, last: retry >= job.retryLimit });
      } catch (error) {
        log.warn({ job: kind.name, jobId: job.id, retry, error: (error as Error).name }, 'job failed');
        throw error;
      }
    };

  return {
    define(kind) {
      kinds.set(kind.name, kind as JobKind<never>);
    },
    async enqueue(tx, name, data) {
      if (!kinds.has(name)) throw new Error(`no job kind ${name}`);
      const id = await boss.send(name, data, {
        db: {
          executeSql: async (text, values) => ({ rows: rowsOf(await tx.execute(drizzleSql(text, values ?? []))) }),
        },
      });
      // pg-boss inserts nothing for a queue that does not exist yet: never a change without its job.
      if (!id) throw new Error(`job queue ${name} does not exist (has the queue started?)`);
    },
    wake(name) {
      const worker = workers.get(name);
      if (worker) boss.notifyWorker(worker);
    },
    async start() {
      // A database that cannot be reached yet does not keep the server from starting (it answers
      // 503 meanwhile): the queue tries again until it starts or the server stops.
      const attempt = async () => {
        retryTimer = undefined;
        try {
          await startQueue();
          started = true;
        } catch (error) {
          log.warn({ error: (error as Error).name }, 'job queue not started; trying again');
          if (!stopping) retryTimer = setTimeout(() => void attempt(), START_RETRY_MS).unref();
        }
      };
      await attempt();
    },
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      if (started) await boss.stop({ graceful: true, wait: true, timeout: options.graceMs });
    },
  };
}
