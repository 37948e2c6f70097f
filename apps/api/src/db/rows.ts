// What the stores' queries answer, read the same way everywhere.

/** The first row a select answers, asked with `limit 1`; undefined when there is none. */
export async function firstRow<Row>(select: { limit(count: number): PromiseLike<Row[]> }): Promise<Row | undefined> {
  const [row] = await select.limit(1);
  return row;
}

/**
 * Whether a write changed a row, by what its `returning` answers: false when nothing matched
 * (a guarded update whose guard another request already moved past).
 */
export async function changedAnyRow(write: PromiseLike<unknown[]>): Promise<boolean> {
  return (await write).length > 0;
}

/** The row a write's `returning` answers; undefined when it wrote none (a guard or a conflict said no). */
export async function returnedRow<Row>(write: PromiseLike<Row[]>): Promise<Row | undefined> {
  const [row] = await write;
  return row;
}

/**
 * The rows a raw `execute` answers: PostgreSQL's driver hands back an array, PGlite's a result
 * whose rows are under `rows`.
 */
export function resultRows<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as T[];
}
