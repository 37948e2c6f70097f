import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteThread } from './pglite-thread.js';

describe('PGlite on its own thread', () => {
  let db: PgliteThread;
  beforeAll(async () => {
    db = new PgliteThread('memory://');
    await db.query('create table t (id int primary key, note text)');
  });
  afterAll(() => db.close());

  it('answers queries in both row modes, with the types Drizzle asks for kept as text', async () => {
    const objects = await db.query('select 1 as n, $1::text as s', ['hola']);
    expect(objects.rows).toEqual([{ n: 1, s: 'hola' }]);
    const arrays = await db.query("select timestamptz '2026-11-22 03:00:00+00' as at", [], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows).toEqual([['2026-11-22 03:00:00+00']]);
  });

  it("Drizzle's text types are set on the database once; other callers still get PGlite's own parsing", async () => {
    const sql = "select timestamptz '2026-11-22 03:00:00+00' as at, date '2026-11-22' as day, interval '1 day' as span";
    const asText = (value: string) => value;
    // Exactly what Drizzle's PGlite driver asks for with every query (drizzle-orm/pglite/session.js).
    const drizzle = Object.fromEntries([1082, 1114, 1115, 1182, 1184, 1185, 1186, 1187, 1231].map((t) => [t, asText]));
    const viaDrizzle = await db.query(sql, [], { rowMode: 'array', parsers: drizzle });
    expect(viaDrizzle.rows).toEqual([['2026-11-22 03:00:00+00', '2026-11-22', '1 day']]);
    // No parsers asked for: dates as PGlite parses them, after Drizzle's queries as before them.
    const [plain] = (await db.query(sql)).rows as { at: unknown; day: unknown }[];
    expect(plain!.at).toEqual(new Date('2026-11-22T03:00:00Z'));
    expect(plain!.day).toBeInstanceOf(Date);
    // Only the timestamp as text: the date is parsed.
    const some = await db.query(sql, [], { rowMode: 'array', parsers: { 1184: asText } });
    expect((some.rows[0] as unknown[])[0]).toBe('2026-11-22 03:00:00+00');
    expect((some.rows[0] as unknown[])[1]).toBeInstanceOf(Date);
  });

  it('a database error keeps its code, constraint and detail', async () => {
    await db.query('insert into t values (1, $1)', ['a']);
    const error = await db.query('insert into t values (1, $1)', ['b']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
  });

  it('each text is prepared once, then run with new parameters (serialised as PGlite does)', async () => {
    const text = 'select $1::int + 1 as n, $2::jsonb as doc, $3::timestamptz as at, $4::text as nothing';
    const at = new Date('2026-11-24T08:00:00Z');
    for (const n of [1, 2, 3]) {
      const { rows } = await db.query(text, [n, { n }, at, null]);
      expect(rows).toEqual([{ n: n + 1, doc: { n }, at, nothing: null }]);
    }
    const { rows } = await db.query('select count(*)::int as kept from pg_prepared_statements where statement = $1', [
      text,
    ]);
    expect(rows).toEqual([{ kept: 1 }]);
  });

  it('bytes sent to a bytea parameter (binary format) come back the same: every byte value, none, 3 MB, a pooled view', async () => {
    await db.query('create table blobs (id int primary key, data bytea)');
    const every = Uint8Array.from({ length: 2 * 256 }, (_, i) => i % 256);
    const large = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
    // A small Buffer is a view into Node's shared pool (its offset is not 0): only its own bytes go.
    const pooled = Buffer.from('hola');
    for (const [id, data] of [
      [1, every],
      [2, new Uint8Array(0)],
      [3, Buffer.from(large)],
      [4, pooled],
    ] as const) {
      await db.query('insert into blobs values ($1, $2)', [id, data]);
      const { rows } = await db.query('select data, octet_length(data)::int as size from blobs where id = $1', [id]);
      const [row] = rows as { data: Uint8Array; size: number }[];
      expect(row!.size).toBe(data.length);
      expect(Buffer.from(row!.data).equals(Buffer.from(data))).toBe(true);
    }
  });

  it('a text PostgreSQL rejects is reported with its code and not kept', async () => {
    const error = await db.query('selec 1').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '42601' });
    expect((await db.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
    const { rows } = await db.query(
      "select count(*)::int as kept from pg_prepared_statements where statement = 'selec 1'",
    );
    expect(rows).toEqual([{ kept: 0 }]);
  });

  it('a statement whose rows change shape after a schema change is prepared again', async () => {
    await db.query('create table shape (a int)');
    await db.query('insert into shape values (1)');
    expect((await db.query('select * from shape')).rows).toEqual([{ a: 1 }]);
    await db.query('alter table shape add column b int default 2');
    expect((await db.query('select * from shape')).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it('only the texts used last stay prepared; an older one is prepared again when it comes back', async () => {
    for (let i = 0; i < 260; i++) expect((await db.query(`select ${i} as n`)).rows).toEqual([{ n: i }]);
    const { rows } = await db.query('select count(*)::int as kept from pg_prepared_statements');
    expect((rows[0] as { kept: number }).kept).toBeLessThanOrEqual(200);
    expect((await db.query('select 0 as n')).rows).toEqual([{ n: 0 }]);
  });

  it('parallel queries and transactions over the same prepared texts each get their own answer', async () => {
    await db.query('create table hits (id int primary key, n int not null)');
    await db.query('insert into hits values (1, 0)');
    const reads = Array.from({ length: 40 }, (_, i) =>
      db.query('select $1::int * 2 as doubled', [i]).then(({ rows }) => expect(rows).toEqual([{ doubled: i * 2 }])),
    );
    const increments = Array.from({ length: 20 }, () =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query('select n from hits where id = $1', [1]);
        await tx.query('update hits set n = $1 where id = $2', [(rows[0] as { n: number }).n + 1, 1]);
      }),
    );
    await Promise.all([...reads, ...increments]);
    expect((await db.query('select n from hits where id = $1', [1])).rows).toEqual([{ n: 20 }]);
  });

  it('a transaction commits what it did, or nothing when it throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (2, $1)', ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t values (3, $1)', ['undone']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await db.query('select id from t where id in (2, 3) order by id');
    expect(rows).toEqual([{ id: 2 }]);
  });

  it('a query from outside waits until an open transaction ends, then sees its result', async () => {
    let outsideDone = false;
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (4, $1)', ['inside']);
      outside = db.query('select note from t where id = 4').then((result) => {
        outsideDone = true;
        return result.rows;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(outsideDone).toBe(false);
    });
    expect(await outside).toEqual([{ note: 'inside' }]);
  });

  it('the calling thread stays free while a long query runs', async () => {
    const started = performance.now();
    const query = db.query('select count(*)::int as n from generate_series(1, 3000000)');
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks += 1;
    }, 5);
    const { rows } = await query;
    clearInterval(timer);
    const took = performance.now() - started;
    expect(rows).toEqual([{ n: 3000000 }]);
    expect(took).toBeGreaterThan(100); // long enough to have blocked the thread if it ran here
    expect(ticks).toBeGreaterThan(took / 5 / 4);
    expect(longestGap).toBeLessThan(100);
  });
});
