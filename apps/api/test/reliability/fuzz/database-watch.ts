import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/db/client.js';

/**
 * Whether a request changed the database, table by table, by content: an MD5 digest of every
 * application table (its rows as text, sorted). Digesting all 29 tables takes ~85 ms on PGlite
 * (the 12,686 neighbourhoods), too slow per request; so a row trigger on every table counts the
 * writes (in a `fuzz` schema of the throw-away test database, outside the application's), and
 * after each request only the tables written to are digested again. A write that leaves a table
 * as it was (a claim taken and released) is no change. `verifyAll` digests everything, to prove
 * the counters missed nothing.
 */
export interface DatabaseWatch {
  tables: string[];
  /** The tables whose content changed since the last call. */
  changed(): Promise<string[]>;
  /** Every table digested again; the ones that differ from what the counters let through. */
  verifyAll(): Promise<string[]>;
}

type Rows<T> = T[] | { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => {
  const value = result as Rows<T>;
  return Array.isArray(value) ? value : value.rows;
};

/** Columns left out of the digest, each for a reason a refusal cannot avoid. */
const IGNORED_COLUMNS: Record<string, string[]> = {
  // The session store moves a staff session's last activity on every read of it (the 30-minute
  // idle limit), refused requests included: that is the session being used, not what was sent.
  staff_sessions: ['last_seen_at'],
  // A partner key's last use moves with every call it makes, refused ones included (issue 30).
  partner_keys: ['last_used_at'],
};

/**
 * Tables left out whole: the partner API's access log records every call of a key, refused ones
 * included, once answered (so after the request: it could land in the next one's count).
 */
const IGNORED_TABLES = new Set(['partner_calls']);

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function watchDatabase(db: Db): Promise<DatabaseWatch> {
  const tables = rowsOf<{ tablename: string }>(
    await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`),
  )
    .map((row) => row.tablename)
    .filter((table) => !IGNORED_TABLES.has(table));
  if (tables.length < 20) throw new Error(`only ${tables.length} application tables found`);
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
    ),
  );
  const digestOf = (table: string) => {
    const kept = columns
      .filter((column) => column.table_name === table && !(IGNORED_COLUMNS[table] ?? []).includes(column.column_name))
      .map((column) => `t.${quote(column.column_name)}`);
    return `(select md5(coalesce(string_agg(r, '|' order by r), '')) from (select row(${kept.join(', ')})::text as r from public.${quote(table)} t) s) as ${quote(table)}`;
  };
  const digest = async (names: string[]) =>
    names.length === 0
      ? {}
      : (rowsOf<Record<string, string>>(await db.execute(sql.raw(`select ${names.map(digestOf).join(', ')}`)))[0] ??
        {});

  await db.execute(sql.raw('create schema if not exists fuzz'));
  await db.execute(
    sql.raw('create table if not exists fuzz.writes (tbl text primary key, n bigint not null default 0)'),
  );
  await db.execute(
    sql.raw(`create or replace function fuzz.count_write() returns trigger language plpgsql as $$
      begin
        insert into fuzz.writes (tbl, n) values (tg_table_name, 1)
          on conflict (tbl) do update set n = fuzz.writes.n + 1;
        return null;
      end $$`),
  );
  for (const table of tables) {
    await db.execute(
      sql.raw(
        `create trigger fuzz_count_write after insert or update or delete on public.${quote(table)} for each row execute function fuzz.count_write()`,
      ),
    );
    await db.execute(
      sql.raw(
        `create trigger fuzz_count_truncate after truncate on public.${quote(table)} for each statement execute function fuzz.count_write()`,
      ),
    );
  }

  const counts = async () =>
    Object.fromEntries(
      rowsOf<{ tbl: string; n: string | number }>(await db.execute(sql.raw('select tbl, n from fuzz.writes'))).map(
        (row) => [row.tbl, String(row.n)],
      ),
    );
  let seen = await counts();
  let digests: Record<string, string> = await digest(tables);

  return {
    tables,
    async changed() {
      const now = await counts();
      const written = Object.keys(now).filter((table) => now[table] !== seen[table]);
      seen = now;
      const fresh = await digest(written);
      const changed = written.filter((table) => fresh[table] !== digests[table]);
      digests = { ...digests, ...fresh };
      return changed;
    },
    async verifyAll() {
      const fresh = await digest(tables);
      const missed = tables.filter((table) => fresh[table] !== digests[table]);
      digests = fresh;
      seen = await counts();
      return missed;
    },
  };
}
