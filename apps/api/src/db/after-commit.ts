import { AsyncLocalStorage } from 'node:async_hooks';

/** What waits for the outermost transaction of the current async context to commit. */
const pending = new AsyncLocalStorage<Array<() => void>>();

/**
 * Runs `effect` once the transaction the caller is in has committed, or at once outside one; never
 * if it rolls back. For what must not count a change that did not happen (the business counters of
 * the metrics; an effect must not throw), never for anything that must happen (that is the job queue's outbox).
 */
export function afterCommit(effect: () => void): void {
  const waiting = pending.getStore();
  if (waiting) waiting.push(effect);
  else effect();
}

/**
 * Wraps `db.transaction` so that `afterCommit` inside it waits for its commit. A transaction opened
 * inside another's callback (a savepoint, or the rare second transaction) joins the outer one's list.
 */
export function withCommitEffects<T extends { transaction: (...args: never[]) => Promise<unknown> }>(db: T): T {
  const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  const wrapped = async (...args: unknown[]) => {
    if (pending.getStore()) return transaction(...args);
    const effects: Array<() => void> = [];
    const result = await pending.run(effects, () => transaction(...args));
    // Back in the caller's context: an effect that opens a transaction is not a nested one.
    for (const effect of effects) effect();
    return result;
  };
  (db as { transaction: unknown }).transaction = wrapped;
  return db;
}
