import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { resultRows } from '../../db/rows.js';
import { serializeError } from '../../logger.js';
import { jobRuns } from '../../observability/metrics.js';
import { currentTraceContext, inJobSpan, TRACE_CONTEXT_KEY } from '../../observability/spans.js';
import { checkDueJobs, WORKER_BACKSTOP_MS } from './due-jobs.js';
import { JOB_SCHEMA } from './jobs.store.js';
import { followStragglers } from './stragglers.js';

/** How long a queue that could not start (its database unreachable) waits before trying again. */
const START_RETRY_MS = 5_000;
/** The least the stop waits for what pg-boss left running (stragglers.ts). */
const STRAGGLERS_WAIT_MS = 5_000;

/**
 * A kind of job: how many times it is tried again after the first (the pause before the first
 * retry is JOB_RETRY_DELAY_SECONDS, doubled for each next one) and how long one run may take.
 */
export interface JobKind<T> {
  name: string;
  retryLimit: number;
  expireInSeconds: number;
  /** How many jobs of this kind one process runs at once (1 unless said). */
  concurrency?: number;
  /**
   * A schedule (cron, UTC): the queue enqueues one job of this kind (no data) at each of its times,
   * once for all the processes on the database (periodic maintenance).
   */
  cron?: string;
  /**
   * Runs the job; throwing has it tried again, or ends it as failed once `last` was the last try.
   * `id` is the job's (absent when a test runs `run` itself).
   */
  run(data: T, attempt: { retry: number; last: boolean; id?: string }): Promise<void>;
}

export interface JobQueue {
  /** A kind this process knows (to enqueue) and runs (when its workers run); before `start`. */
  define<T>(kind: JobKind<T>): void;
  /**
   * Enqueues a job in the caller's transaction (the transactional outbox): it exists only if the
   * change that announces it commits, and is done only once that change is there to read. The
   * job's id.
   */
  enqueue<T extends object>(tx: Executor, name: string, data: T): Promise<string>;
  /** After the enqueuing transaction committed: this process's workers of `name` look now, not at their next poll. */
  wake(name: string): void;
  /** Whether this process runs jobs of `name` (JOB_POLL_INTERVAL_MS is not 0 and JOB_KINDS_OFF does not name it). */
  runsHere(name: string): boolean;
  /** The kind defined under `name` (tests run its jobs by hand: src/test/jobs.ts). */
  kind(name: string): JobKind<unknown> | undefined;
  /** Starts the queue and, unless JOB_POLL_INTERVAL_MS is 0, this process's workers. */
  start(): Promise<void>;
  /** Stops fetching, waits for the running jobs (up to JOB_STOP_GRACE_MS), then stops. */
  stop(): Promise<void>;
  /** Started (its database reached) and not stopping: what /readyz asks of the queue. */
  readonly running: boolean;
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

/** pg-boss as the writer of a job's row only: never started, it runs nothing and opens nothing. */
const jobWriter = new PgBoss({
  db: {
    executeSql: () => Promise.reject(new Error("the job writer runs only in a caller's transaction")),
  },
  schema: JOB_SCHEMA,
  migrate: false,
  supervise: false,
  schedule: false,
});

/**
 * Enqueues a job in the caller's transaction (the transactional outbox) by its kind's name, for a
 * module below the one that runs it (the event feed enqueues webhook sends). `startAfterSeconds`
 * holds it back (a retry on a schedule of its own, a simulated answer's delay). The job's id.
 */
export async function enqueueJob<T extends object>(
  tx: Executor,
  name: string,
  data: T,
  options: { startAfterSeconds?: number } = {},
): Promise<string> {
  // The trace of the change that enqueues it goes along: the job's run joins it (decision 036).
  const trace = currentTraceContext();
  const id = await jobWriter.send(name, trace ? { ...data, [TRACE_CONTEXT_KEY]: trace } : data, {
    // As a time (this process's clock), not pg-boss's seconds: our `$n` become one parameter per
    // use (drizzleSql), and pg-boss's statement also casts its start to a timestamp, which a
    // number's text is not.
    ...(options.startAfterSeconds && options.startAfterSeconds > 0
      ? { startAfter: new Date(Date.now() + options.startAfterSeconds * 1000) }
      : {}),
    db: {
      executeSql: async (text, values) => ({ rows: resultRows(await tx.execute(drizzleSql(text, values ?? []))) }),
    },
  });
  // pg-boss inserts nothing for a queue that does not exist yet: never a change without its job.
  if (!id) throw new Error(`job queue ${name} does not exist (has the queue started?)`);
  return id;
}

/** A job's data as its kind reads it, and the trace that enqueued it (when there was one). */
function withoutTraceContext(data: unknown): { data: unknown; trace: unknown } {
  if (!data || typeof data !== 'object' || !(TRACE_CONTEXT_KEY in data)) return { data, trace: undefined };
  const { [TRACE_CONTEXT_KEY]: trace, ...rest } = data as Record<string, unknown>;
  return { data: rest, trace };
}

/**
 * What pg-boss keeps of a failure in the job's row, which admins see: its type and its message as
 * the logs write them (serializeError), so a database error's message, query and parameters (a
 * phone, a name) are never kept, only its code.
 */
function keptFailure(error: unknown): Error {
  const seen = serializeError(error);
  const code = seen.errorCode ?? (seen.cause as { errorCode?: unknown } | undefined)?.errorCode;
  const kept = new Error(`${seen.message}${code === undefined ? '' : ` (${String(code)})`}`.slice(0, 500));
  kept.name = error instanceof Error ? error.name : 'Error';
  return kept;
}

/**
 * The job queue: pg-boss on the product's database, PostgreSQL or PGlite alike (decision 029): it
 * talks to the database through `executeSql` (ours), never a connection of its own.
 */
export function createJobQueue(
  database: Database,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  options: { pollMs: number; retryDelaySeconds: number; graceMs: number; kindsOff?: readonly string[] },
): JobQueue {
  const working = options.pollMs > 0;
  const kindsOff = new Set(options.kindsOff ?? []);
  // What pg-boss leaves running after its stop: waited for before the database may close.
  const stragglers = followStragglers();
  const executeSql = (text: string, values?: unknown[]) =>
    stragglers.statement(() => database.executeSql(text, values?.map(pgValue)));
  const boss = new PgBoss({
    db: { executeSql },
    schema: JOB_SCHEMA,
    migrate: false,
    // Maintenance (expiring, archiving, deleting old jobs) from any process; one at a time (its lock).
    supervise: true,
    // A kind's schedule (cron) is kept by the processes that run workers; pg-boss enqueues each of
    // its times once for all of them.
    schedule: working,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  const kinds = new Map<string, JobKind<never>>();
  const workers = new Map<string, string[]>();
  let started = false;
  let stopping = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let dueCheck: { stop(): void } | undefined;
  const runsHere = (name: string) => working && !kindsOff.has(name);
  const wake = (name: string) => {
    for (const worker of workers.get(name) ?? []) boss.notifyWorker(worker);
  };

  /** pg-boss, each kind's queue (its retry options as configured now), its schedule and this process's workers. */
  async function startQueue() {
    await boss.start();
    // Before the workers: those made before a kind that fails to start are still woken on time.
    if (working && !dueCheck && !stopping)
      dueCheck = checkDueJobs({
        everyMs: options.pollMs,
        queues: () => [...workers.keys()],
        query: executeSql,
        wake,
        onError: (error) => log.warn({ err: error }, 'job queue: the check for due jobs failed'),
      });
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
      if (kind.cron) await boss.schedule(kind.name, kind.cron, undefined, { tz: 'UTC' });
      if (runsHere(kind.name) && !workers.has(kind.name)) {
        // Each worker looks on its own only as a backstop: the due check (above) wakes it on time.
        const polling = { pollingIntervalSeconds: Math.max(options.pollMs, WORKER_BACKSTOP_MS) / 1000 };
        const ids: string[] = [];
        for (let i = 0; i < Math.max(1, kind.concurrency ?? 1); i++)
          ids.push(await boss.work(kind.name, { ...polling, includeMetadata: true, batchSize: 1 }, runner(kind)));
        workers.set(kind.name, ids);
      }
    }
  }

  /** pg-boss's worker for `kind`: its job's run is followed (the stop waits for it). */
  const runner =
    (kind: JobKind<never>) =>
    async ([job]: PgBoss.JobWithMetadata<object>[]) => {
      if (!job) return;
      await stragglers.run(runJob(kind, job));
    };

  /** One job of `kind`: a failure is logged by its kind and id (never its data) and thrown for pg-boss to retry. */
  async function runJob(kind: JobKind<never>, job: PgBoss.JobWithMetadata<object>) {
    const retry = job.retryCount;
    const { data, trace } = withoutTraceContext(job.data);
    try {
      await inJobSpan(kind.name, trace, () =>
        kind.run(data as never, { retry, last: retry >= job.retryLimit, id: job.id }),
      );
      jobRuns.inc({ kind: kind.name, outcome: 'ok' });
    } catch (error) {
      jobRuns.inc({ kind: kind.name, outcome: 'failed' });
      log.warn({ job: kind.name, jobId: job.id, retry, err: error }, 'job failed');
      throw keptFailure(error);
    }
  }

  return {
    define(kind) {
      kinds.set(kind.name, kind as JobKind<never>);
    },
    async enqueue(tx, name, data) {
      if (!kinds.has(name)) throw new Error(`no job kind ${name}`);
      return enqueueJob(tx, name, data);
    },
    wake,
    runsHere: (name) => kinds.has(name) && runsHere(name),
    get running() {
      return started && !stopping;
    },
    kind: (name) => kinds.get(name) as JobKind<unknown> | undefined,
    async start() {
      // A kind named to be left to other processes must exist: a typo would run it here after all.
      const unknown = [...kindsOff].filter((name) => !kinds.has(name));
      if (unknown.length > 0) throw new Error(`JOB_KINDS_OFF: no job kind ${unknown.join(', ')}`);
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
      dueCheck?.stop();
      if (started) await boss.stop({ graceful: true, wait: true, timeout: options.graceMs });
      await stragglers.closeAfter(Math.max(options.graceMs, STRAGGLERS_WAIT_MS));
    },
  };
}
