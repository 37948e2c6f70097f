import type { StatusTransition } from '@provee/domain';
import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A status change by a row of its transition table (packages/domain/src/status-transitions.ts):
 * the new status and the guard `status in <from>` for the store's update (zero rows: another
 * request moved it first). A move the table does not have is a programming error.
 */
export function statusMove<Status extends string>(
  column: PgColumn,
  transitions: Record<string, StatusTransition<Status>>,
  name: string,
  to: Status,
): { status: Status; guard: SQL } {
  const transition = transitions[name];
  if (!transition || !transition.to.includes(to))
    throw new Error(`${column.name} transition ${name} cannot end in ${to}`);
  return { status: to, guard: inArray(column, [...transition.from]) };
}

/** The `statusMove` of one status column and its transition table, by transition name and target. */
export function statusMoves<Status extends string, Name extends string>(
  column: PgColumn,
  transitions: Record<Name, StatusTransition<Status>>,
): (name: Name, to: Status) => { status: Status; guard: SQL } {
  return (name, to) => statusMove<Status>(column, transitions, name, to);
}
