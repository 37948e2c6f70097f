import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';

/**
 * `executeSql` is how the job queue (pg-boss) talks to the database. Its supervision and
 * maintenance send several statements in one transaction of their own (pg-boss's `locked()`): on
 * PostgreSQL, postgres.js refused them on a pooled connection (UNSAFE_TRANSACTION), so jobs whose
 * worker died were never expired and nothing was archived.
 */
describe('executeSql: the job queue’s statements', () => {
  const t = useTestApp();

  it('runs a multi-statement transaction (BEGIN; …; COMMIT) as pg-boss sends it, again and again', async () => {
    await t.app.database.executeSql('create table if not exists execute_sql_probe (n int)');
    const locked = `
      BEGIN;
      SET LOCAL lock_timeout = '30s';
      SET LOCAL idle_in_transaction_session_timeout = '30s';
      SELECT pg_advisory_xact_lock(727002);
      INSERT INTO execute_sql_probe VALUES (1);
      COMMIT;
    `;
    // More than the pool's connections, at once: none is left inside a transaction.
    await Promise.all(Array.from({ length: 12 }, () => t.app.database.executeSql(locked)));
    const { rows } = await t.app.database.executeSql('select count(*)::int as n from execute_sql_probe');
    expect(Number((rows[0] as { n: number }).n)).toBe(12);
    const [open] = (
      await t.app.database.executeSql(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction'",
      )
    ).rows as { n: number }[];
    expect(Number(open!.n)).toBe(0);
  });
});
