import type { Db } from './client.js';
import { catalogRevision } from './schema.js';

/**
 * How long a process trusts the catalogue revision it last read. The catalogue changes by the
 * start-up seed, the importer (a CLI: another process) or an operator's SQL, never by a request;
 * a change shows in every process's lists and address search within this time.
 */
export const CATALOG_REVISION_CHECK_MS = 1_000;

export interface CatalogRevision {
  /** The catalogue's revision (migration 0013), read again once it is older than CATALOG_REVISION_CHECK_MS. */
  current(): Promise<number>;
}

/** One read at a time, shared by the requests that arrive meanwhile; `now` is the app's clock. */
export function createCatalogRevision(db: Db, now: () => number): CatalogRevision {
  let known: { revision: number; readAt: number } | undefined;
  let reading: Promise<number> | undefined;
  const read = async () => {
    const [row] = await db.select({ revision: catalogRevision.revision }).from(catalogRevision);
    known = { revision: row?.revision ?? 0, readAt: now() };
    return known.revision;
  };
  return {
    current() {
      if (known && now() - known.readAt < CATALOG_REVISION_CHECK_MS) return Promise.resolve(known.revision);
      reading ??= read().finally(() => {
        reading = undefined;
      });
      return reading;
    },
  };
}
