import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The applicant's names as one text, as the back office searches them (the trigram index is on this
 * very expression; `||` and coalesce, unlike concat_ws, may be indexed).
 */
export function searchableName(table: { name: AnyPgColumn; lastname: AnyPgColumn; maternalLastname: AnyPgColumn }) {
  return sql`(coalesce(${table.name}, '') || ' ' || coalesce(${table.lastname}, '') || ' ' || coalesce(${table.maternalLastname}, ''))`;
}
