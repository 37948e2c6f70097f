/**
 * Effects that wait for a transaction to commit, kept by the transaction object itself (decision
 * 045: not an AsyncLocalStorage, whose promise hooks cost every request 10–30 µs of CPU).
 */
type Effects = Array<() => void>;

/** The effects waiting on each open transaction (or savepoint), by its Drizzle transaction object. */
const waiting = new WeakMap<object, Effects>();

/**
 * Runs `effect` once `executor`'s transaction has committed, or at once when `executor` is not a
 * transaction; never if it rolls back. For what must not count a change that did not happen (the
 * business counters of the metrics; an effect must not throw), never for anything that must happen
 * (that is the job queue's outbox).
 */
export function afterCommit(executor: object, effect: () => void): void {
  const effects = waiting.get(executor);
  if (effects) effects.push(effect);
  else effect();
}

interface Transactional {
  transaction: (callback: (tx: object) => Promise<unknown>, ...rest: unknown[]) => Promise<unknown>;
}

/**
 * Makes `target.transaction` hand its callback a transaction that collects effects, and give them
 * to `ended` once it has ended well: run them (the outermost transaction, committed) or add them to
 * the enclosing transaction's (a savepoint, released). A savepoint rolled back drops its own.
 */
function collectEffects(target: Transactional, ended: (effects: Effects) => void): void {
  const transaction = target.transaction.bind(target);
  target.transaction = async (callback, ...rest) => {
    const effects: Effects = [];
    const result = await transaction(
      (tx) => {
        waiting.set(tx, effects);
        collectEffects(tx as Transactional, (released) => effects.push(...released));
        return callback(tx);
      },
      ...rest,
    );
    ended(effects);
    return result;
  };
}

/**
 * Wraps `db.transaction` so that `afterCommit(tx, …)` inside it waits for its commit. A second
 * transaction opened on `db` inside another's callback runs its effects at its own commit.
 */
export function withCommitEffects<T extends { transaction: (...args: never[]) => Promise<unknown> }>(db: T): T {
  collectEffects(db as unknown as Transactional, (committed) => {
    for (const effect of committed) effect();
  });
  return db;
}
