import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';

/**
 * The `set` of an upsert (`on conflict do update`) that takes these columns from the row it tried
 * to insert: `{ zipCode: excluded.zip_code, … }`.
 */
export function takeFromExcluded<Table extends PgTable, Key extends keyof Table['_']['columns'] & string>(
  table: Table,
  keys: readonly Key[],
): PgUpdateSetSource<Table> {
  const columns = getTableColumns(table);
  return Object.fromEntries(
    keys.map((key) => [key, sql.raw(`excluded.${columns[key]!.name}`)]),
  ) as PgUpdateSetSource<Table>;
}
