import type { Db } from './client.js';

/**
 * A prepared query built once per database, on first use: Drizzle then skips assembling its SQL on
 * every call, and the database parsing and planning it (the hot reads: the user detail, the back
 * office's session and account).
 */
export function preparedPerDatabase<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
