/**
 * The map of personal data (issue 31): every column of every table, said to hold personal data or
 * not. For the personal ones: whose data it is, its category, the legal basis it is held under, the
 * retention rule that ends it and how an erasure removes it. Erasure and export read it; its test
 * fails when a table gains a column nobody classified, so a new field cannot slip past them.
 * Names are the database's (snake_case): the map is data about the schema, not code over it.
 */
import { APPLICATION_TABLES } from './data-map-application.js';
import { EVIDENCE_TABLES } from './data-map-evidence.js';
import { SYSTEM_TABLES } from './data-map-system.js';
import type { ErasureMethod, TableEntry } from './data-map-types.js';

export * from './data-map-types.js';

/** Every table of db/schema.ts, by its SQL name (data-map.test.ts checks both ways). */
export const DATA_MAP: Record<string, TableEntry> = { ...APPLICATION_TABLES, ...EVIDENCE_TABLES, ...SYSTEM_TABLES };

/** The personal columns of a table an erasure handles by `method`. */
export function columnsErased(table: string, method: ErasureMethod): string[] {
  const entry = DATA_MAP[table];
  if (!entry) throw new Error(`table ${table} is not in the data map`);
  return Object.entries(entry.personal)
    .filter(([, column]) => column.erasure === method)
    .map(([name]) => name);
}
