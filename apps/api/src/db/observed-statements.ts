import { SpanKind, type Span } from '@opentelemetry/api';
import { dbStatementDuration, poolDemand, statementsInFlight } from '../observability/metrics.js';
import { markFailed, startChildSpan } from '../observability/spans.js';

type Engine = 'pglite' | 'postgres';

/** The longest statement text a span keeps (a job library's maintenance script is longer). */
const MAX_STATEMENT_CHARS = 2_000;

/** The operations the metrics name; any other statement (BEGIN, a script) counts as OTHER. */
const OPERATIONS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'WITH']);

/**
 * Watches one statement from when it is made to its answer: the metrics (in flight, time by
 * operation) always; a span of the current trace while tracing is on (decision 036) with the
 * statement's shape only (the text with $1…, never the values), named by its first word. About a
 * microsecond without a trace: plain counts read at the scrape, one histogram observation.
 */
function watch(engine: Engine, text: string, holdsConnection = false): (error?: unknown) => void {
  const word = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? 'OTHER';
  statementsInFlight[engine] += 1;
  if (holdsConnection) poolDemand.postgres += 1;
  const started = performance.now();
  const span: Span | null = startChildSpan(word, SpanKind.CLIENT, () => ({
    'db.system.name': 'postgresql',
    'db.operation.name': word,
    'db.query.text': text.length > MAX_STATEMENT_CHARS ? `${text.slice(0, MAX_STATEMENT_CHARS)}…` : text,
    'provee.db.engine': engine,
  }));
  let ended = false;
  return (error) => {
    if (ended) return;
    ended = true;
    statementsInFlight[engine] -= 1;
    if (holdsConnection) poolDemand.postgres -= 1;
    dbStatementDuration.observe(
      { engine, operation: OPERATIONS.has(word) ? word : 'OTHER' },
      (performance.now() - started) / 1000,
    );
    if (!span) return;
    if (error !== undefined) markFailed(span, error);
    span.end();
  };
}

/** One statement on the embedded database, watched (its thread answers a promise). */
export function observedStatement<T>(text: string, run: () => Promise<T>): Promise<T> {
  const end = watch('pglite', text);
  return run().then(
    (value) => {
      end();
      return value;
    },
    (error: unknown) => {
      end(error);
      throw error;
    },
  );
}

/**
 * postgres.js's client with each statement watched. A statement is lazy (it is sent when awaited,
 * after Drizzle chose `.values()`): it is watched to the answer its await gets, never through a
 * `then` of ours that would send it early. The transactions and savepoints Drizzle opens hand over
 * clients wrapped the same way. The pool's demand counts what holds or waits for a connection: an
 * open transaction (from its BEGIN to its end, its statements included), or a statement outside one.
 */
export function observedPostgres<T extends object>(client: T, inTransaction = false): T {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let wrapped = methods.get(key);
      if (wrapped) return wrapped;
      const method = value as (...args: unknown[]) => unknown;
      if (key === 'unsafe')
        wrapped = (text: string, ...rest: unknown[]) =>
          watchWhenAwaited(method.call(target, text, ...rest), text, inTransaction);
      else if (key === 'begin' || key === 'savepoint')
        wrapped = (...args: unknown[]) => {
          const work = args.pop() as (sql: object) => unknown;
          const run = () => method.call(target, ...args, (sql: object) => work(observedPostgres(sql, true)));
          if (key === 'savepoint' || inTransaction) return run();
          poolDemand.postgres += 1;
          return (run() as Promise<unknown>).finally(() => (poolDemand.postgres -= 1));
        };
      else wrapped = method.bind(target);
      methods.set(key, wrapped);
      return wrapped;
    },
  });
}

function watchWhenAwaited<Q>(statement: Q, text: string, inTransaction: boolean): Q {
  // Outside a transaction a statement takes a connection of its own; inside, the transaction's.
  const settle = watch('postgres', text, !inTransaction);
  const query = statement as unknown as PromiseLike<unknown>;
  const then = query.then.bind(query);
  (query as { then: PromiseLike<unknown>['then'] }).then = (onFulfilled, onRejected) =>
    then(
      (value) => {
        settle();
        return onFulfilled ? onFulfilled(value) : (value as never);
      },
      (error: unknown) => {
        settle(error);
        if (onRejected) return onRejected(error);
        throw error;
      },
    );
  return statement;
}
