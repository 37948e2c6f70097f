import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-app.js';
import type { Database } from './client.js';

/**
 * Issue 14 (scale): every table that holds rows per user is read by user on a request path, so
 * each `user_id` column must lead an index, or a read's cost grows with the number of users. The
 * tables come from the catalog, so a new table with a `user_id` cannot escape.
 */
describe('every user_id column leads an index', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
  });
  afterAll(() => drop());

  const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result = await database.db.execute(query);
    return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
  };

  it('the planner can find any user’s rows without a sequential scan', async () => {
    const tables = await rows<{ table_name: string }>(sql`
      select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'user_id' order by table_name`);
    expect(tables.length).toBeGreaterThan(5);
    const scanned: string[] = [];
    await database.db.transaction(async (tx) => {
      // With sequential scans priced out, a plan that still scans has no index to use.
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const { table_name: table } of tables) {
        const result = await tx.execute(
          sql.raw(`explain select * from "${table}" where user_id = '00000000-0000-4000-8000-000000000000'`),
        );
        const plan = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows)
          .map((line) => Object.values(line as Record<string, string>)[0])
          .join('\n');
        if (/Seq Scan/.test(plan)) scanned.push(table);
      }
    });
    expect(scanned).toEqual([]);
  });
});
