import { randomUUID } from 'node:crypto';
import { STAFF_ROLES } from '@provee/domain';
import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { createUser } from '../../test/factories.js';
import { fakePerson } from '../../test/fake.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { staffSession } from '../../test/staff.js';
import { applicationsPage, applicationsWhere, countMatches } from './applications.store.js';

/**
 * Issue 35: the list pages by cursor on (updated_at, id), or (created_at, id) given a range of start
 * days, finds names through their trigrams and counts no further than 10,000, so each answer costs
 * the same at any size of the table.
 */
describe('back office: the applications list at scale', () => {
  let t: TestApp;
  let analyst: Awaited<ReturnType<typeof staffSession>>;
  beforeAll(async () => {
    t = await createTestApp();
    analyst = await staffSession(t.app, 'analyst');
  });
  afterAll(() => t.close());

  const list = (query: Record<string, string>, headers: Record<string, string> = analyst.headers) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice/applications?${new URLSearchParams(query)}`, headers });
  const rowsOf = async <T>(query: SQLWrapper): Promise<T[]> => {
    const result = await t.app.db.execute(query);
    return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
  };

  interface Made {
    /** updated_at as the database writes it (µs); the factory's own when not given. */
    at?: string;
    /** created_at, the same way. */
    startedAt?: string;
    status?: 'IN_PROGRESS' | 'WAITING' | 'REJECTED';
    nextStep?: string;
    name?: string;
    lastname?: string;
    maternalLastname?: string;
  }
  /** Applications of one campaign of their own (so a test lists only its rows), as the factory makes them, then moved in time. */
  async function campaign(made: Made[]): Promise<string> {
    const name = `issue-35-${randomUUID()}`;
    for (const row of made) {
      const user = await createUser(t.app, { status: row.status, nextStep: row.nextStep });
      const person = fakePerson();
      await t.app.db
        .update(users)
        .set({
          utmName: name,
          name: row.name ?? person.name,
          lastname: row.lastname ?? person.lastname,
          maternalLastname: row.maternalLastname ?? person.maternalLastname,
          ...(row.at ? { updatedAt: sql`${row.at}::timestamptz` } : {}),
          ...(row.startedAt ? { createdAt: sql`${row.startedAt}::timestamptz` } : {}),
        })
        .where(eq(users.id, user.id));
    }
    return name;
  }

  /** The ids in the list's order, as the database sorts them. */
  const inOrder = async (utmName: string, status?: string) =>
    (
      await rowsOf<{ id: string }>(sql`select id from users where utm_name = ${utmName}
        and (${status ?? null}::text is null or status = ${status ?? null})
        order by updated_at desc, id desc`)
    ).map((row) => row.id);

  interface Page {
    items: { id: string }[];
    total: number;
    total_exact: boolean;
    next_cursor: string | null;
    previous_cursor: string | null;
  }
  async function page(query: Record<string, string>): Promise<Page> {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Page;
  }

  /** Every page from the first by Siguiente, then back from the last by Anterior (20 at most: a walk that loops stops). */
  async function walk(query: Record<string, string>) {
    const forward: Page[] = [await page(query)];
    while (forward.at(-1)!.next_cursor && forward.length < 20)
      forward.push(await page({ ...query, after: forward.at(-1)!.next_cursor! }));
    const backward: Page[] = [forward.at(-1)!];
    while (backward.at(-1)!.previous_cursor && backward.length < 20)
      backward.push(await page({ ...query, before: backward.at(-1)!.previous_cursor! }));
    const ids = (pages: Page[]) => pages.map((p) => p.items.map((item) => item.id));
    return { forward, pages: ids(forward), back: ids(backward).reverse() };
  }

  it('Siguiente walks every application once, newest activity first, equal times and microseconds apart too; Anterior walks back', async () => {
    // Four share one instant; two are a microsecond either side of it (a cursor kept to the
    // millisecond would skip or repeat them).
    const tied = '2026-11-20T10:00:00.123456Z';
    const utm = await campaign([
      { at: '2026-11-21T08:00:00.000001Z' },
      { at: '2026-11-20T10:00:00.123457Z' },
      { at: tied },
      { at: tied },
      { at: tied },
      { at: tied },
      { at: '2026-11-20T10:00:00.123455Z' },
      { at: '2026-11-19T23:59:59.999999Z' },
      { at: '2026-11-01T00:00:00Z' },
      { at: '2025-01-01T00:00:00Z' },
      {},
    ]);
    const expected = await inOrder(utm);
    expect(expected).toHaveLength(11);

    const { forward, pages, back } = await walk({ utm_campaign: utm, page_size: '3' });
    expect(pages.map((items) => items.length)).toEqual([3, 3, 3, 2]);
    expect(pages.flat()).toEqual(expected);
    expect(forward[0]!.previous_cursor).toBeNull();
    expect(forward.at(-1)!.next_cursor).toBeNull();
    expect(forward.every((p) => p.total === 11 && p.total_exact)).toBe(true);
    expect(back).toEqual(pages);
  });

  it('the filters keep the same order through the pages (status, step, name)', async () => {
    const utm = await campaign(
      Array.from({ length: 9 }, (_, i) => ({
        at: `2026-11-2${i % 3}T10:00:00.00000${i}Z`,
        status: i % 2 === 0 ? ('REJECTED' as const) : ('WAITING' as const),
        nextStep: 'ACCOUNT_BUREAU',
        lastname: 'Quisqueya',
      })),
    );
    const rejected = await inOrder(utm, 'REJECTED');
    expect(rejected).toHaveLength(5);
    const filters = { utm_campaign: utm, status: 'REJECTED', next_step: 'ACCOUNT_BUREAU', q: 'quisq' };
    const { pages, back } = await walk({ ...filters, page_size: '2' });
    expect(pages.flat()).toEqual(rejected);
    expect(back).toEqual(pages);
    expect((await page({ ...filters, next_step: 'PASSWORD' })).items).toEqual([]);
  });

  it('given a range of start days, the latest started first: every page once, equal starts too, whatever the activity; Anterior walks back', async () => {
    const tied = '2026-11-10T09:00:00.654321Z';
    const starts = [
      '2026-11-21T23:59:59.999999Z',
      '2026-11-15T12:00:00Z',
      '2026-11-10T09:00:00.654322Z',
      tied,
      tied,
      tied,
      '2026-11-10T09:00:00.654320Z',
      '2026-11-01T00:00:00Z',
    ];
    // The activity runs the other way round, so the two orders differ; two starts fall outside the range.
    const utm = await campaign(
      [...starts, '2026-10-31T23:59:59.999999Z', '2026-11-22T00:00:00Z'].map((startedAt, i) => ({
        startedAt,
        at: `2026-11-25T10:00:00.00000${i}Z`,
      })),
    );
    const expected = (
      await rowsOf<{ id: string }>(sql`select id from users where utm_name = ${utm}
        and created_at >= '2026-11-01' and created_at < '2026-11-22' order by created_at desc, id desc`)
    ).map((row) => row.id);
    expect(expected).toHaveLength(8);
    expect(expected).not.toEqual((await inOrder(utm)).filter((id) => expected.includes(id)));

    const { forward, pages, back } = await walk({
      utm_campaign: utm,
      from: '2026-11-01',
      to: '2026-11-21',
      page_size: '3',
    });
    expect(pages.map((items) => items.length)).toEqual([3, 3, 2]);
    expect(pages.flat()).toEqual(expected);
    expect(forward.every((p) => p.total === 8 && p.total_exact)).toBe(true);
    expect(back).toEqual(pages);
    // One bound is a range too.
    expect((await walk({ utm_campaign: utm, to: '2026-11-21', page_size: '4' })).pages.flat()).toHaveLength(9);
  });

  it('a name is found by any part of it, in any case, accents as written; fewer than 3 letters in a row is refused in Spanish', async () => {
    const utm = await campaign([{ name: 'Zoila Inés', lastname: 'Quiñónez', maternalLastname: 'Ureña' }]);
    const [id] = await inOrder(utm);
    const found = async (q: string) => (await page({ q, utm_campaign: utm })).items.map((item) => item.id);
    expect(await found('quiñón')).toEqual([id]);
    expect(await found('QUIÑÓNEZ')).toEqual([id]);
    expect(await found('Inés Quiñ')).toEqual([id]);
    expect(await found('  ñónez ureñ ')).toEqual([id]);
    // As the search always did: accents are compared as written.
    expect(await found('quinonez')).toEqual([]);

    for (const q of ['Qu', 'Li Wu', 'a%b']) {
      const res = await list({ q });
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        readable_message: 'Para buscar por nombre escribe al menos 3 letras seguidas.',
        issues: [{ field: 'query.q' }],
      });
    }
  });

  it('a cursor the list did not give is a 400 in Spanish, never a 500; a well-formed one of a row gone still pages', async () => {
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    const id = randomUUID();
    const bad = [
      'no-es-un-cursor',
      cursor(`2026-02-30T10:00:00.000000Z|${id}`),
      cursor(`0000-01-01T00:00:00.000000Z|${id}`),
      cursor(`1969-12-31T23:59:59.999999Z|${id}`),
      cursor(`2026-11-20T10:00:00.123Z|${id}`),
      cursor('2026-11-20T10:00:00.123456Z|no-es-un-id'),
      cursor(`2026-11-20T10:00:00.123456Z|${id}'; drop table users; --`),
    ];
    for (const field of ['after', 'before']) {
      for (const value of bad) {
        const res = await list({ [field]: value });
        expect(res.statusCode, `${field}=${value}`).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          readable_message: 'La página pedida no es válida: vuelve a la primera página de la lista.',
          issues: [{ field: `query.${field}` }],
        });
      }
      expect((await list({ [field]: 'x'.repeat(201) })).statusCode).toBe(400);
    }
    const good = cursor(`2026-11-20T10:00:00.123456Z|${id}`);
    const both = await list({ after: good, before: good });
    expect(both.statusCode).toBe(400);
    expect(both.json().readable_message).toBe('Pide la página siguiente o la anterior, no ambas.');
    expect((await list({ after: good })).statusCode).toBe(200);
    expect((await list({ before: good })).statusCode).toBe(200);
    // A page of one order is no place in the other (by activity; by creation, given a range of days).
    const created = cursor(`created|2026-11-20T10:00:00.123456Z|${id}`);
    expect((await list({ after: created, from: '2026-11-01' })).statusCode).toBe(200);
    for (const wrong of [{ after: created }, { before: good, to: '2026-11-30' }] as Record<string, string>[]) {
      const res = await list(wrong);
      expect(res.statusCode, JSON.stringify(wrong)).toBe(400);
      expect(res.json().readable_message).toBe(
        'La página pedida no es válida: vuelve a la primera página de la lista.',
      );
    }
  });

  it('every role lists; without a session the list is refused', async () => {
    for (const role of STAFF_ROLES) {
      const { headers } = await staffSession(t.app, role);
      expect((await list({}, headers)).statusCode, role).toBe(200);
    }
    expect((await list({}, {})).statusCode).toBe(401);
  });

  it('the total stops counting past 10,000 and says so', async () => {
    const utm = `issue-35-${randomUUID()}`;
    const insert = (from: number, to: number) =>
      t.app.db.execute(sql`insert into users (phone_e164, next_step, name, lastname, utm_name, updated_at)
        select '+1999' || lpad(n::text, 7, '0'), 'TAX_ACCOUNT', 'Capada', 'Cuenta', ${utm},
          timestamptz '2026-11-01' + n * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as n`);
    await insert(1, 10_000);
    expect(await page({ utm_campaign: utm })).toMatchObject({ total: 10_000, total_exact: true });
    await insert(10_001, 10_001);
    const capped = await page({ utm_campaign: utm });
    expect(capped).toMatchObject({ total: 10_000, total_exact: false, previous_cursor: null });
    expect(capped.items).toHaveLength(25);
    expect(capped.next_cursor).not.toBeNull();
    // By name, past the cap: the page is still the newest of all the matches, not of those found
    // first (the one inserted last, the newest, is past the 10,001 a name's matches are read up to).
    await insert(10_002, 10_002);
    const [newest] = await rowsOf<{ id: string }>(
      sql`select id from users where utm_name = ${utm} order by updated_at desc, id desc limit 1`,
    );
    const byName = await page({ q: 'Capada Cuenta' });
    expect(byName).toMatchObject({ total: 10_000, total_exact: false });
    expect(byName.items[0]!.id).toBe(newest!.id);
  });

  it('the plans: a name through the trigram index, a page from its cursor on (updated_at, id), or on (created_at, id) by start, a count by start in that index alone, a count of two filters in the index of one', async () => {
    // 20,000 applications with made-up names, three with a rare one, then the table as autovacuum
    // leaves it (statistics, and the index's pending list merged). Below ~10,000 rows, or with rows
    // still in the GIN pending list, reading the whole table is the cheaper plan and the planner takes it.
    // Half wait for their password, a fifth came from Facebook: a tenth are both.
    const names = Array.from({ length: 40 }, () => fakePerson());
    const words = (pick: (person: ReturnType<typeof fakePerson>) => string) =>
      sql`string_to_array(${names.map(pick).join('|')}, '|')`;
    await t.app.db
      .execute(sql`insert into users (phone_e164, next_step, name, lastname, maternal_lastname, updated_at, created_at,
        utm_source)
      select '+1888' || lpad(n::text, 7, '0'), case when n % 2 = 0 then 'PASSWORD' else 'TAX_ACCOUNT' end,
        (${words((p) => p.name)})[1 + n % 40],
        (${words((p) => p.lastname)})[1 + n % 37], (${words((p) => p.maternalLastname)})[1 + n % 31],
        timestamptz '2026-10-01' + n * interval '1 minute', timestamptz '2026-09-01' + (n / 3) * interval '1 minute',
        case when n % 5 = 0 then 'facebook' end
      from generate_series(1, 20000) as n`);
    await campaign([{ lastname: 'Yaguarí' }, { lastname: 'Yaguarí' }, { maternalLastname: 'Yaguarí' }]);
    await t.app.db.execute(sql`vacuum analyze users`);

    interface PlanNode {
      'Node Type': string;
      'Relation Name'?: string;
      'Index Name'?: string;
      'Scan Direction'?: string;
      Plans?: PlanNode[];
    }
    const nodes = async (query: SQLWrapper) => {
      const [row] = await rowsOf<Record<string, unknown>>(sql`explain (format json) ${query}`);
      const value = Object.values(row!)[0];
      const plan = (typeof value === 'string' ? JSON.parse(value) : value) as [{ Plan: PlanNode }];
      const all: PlanNode[] = [];
      const visit = (node: PlanNode) => {
        all.push(node);
        node.Plans?.forEach(visit);
      };
      visit(plan[0].Plan);
      return all;
    };
    const scans = (all: PlanNode[]) =>
      all.filter((node) => /Scan/.test(node['Node Type']) && node['Index Name']?.startsWith('users_'));

    const byName = applicationsWhere({ search: { words: 'yaguarí' } });
    for (const query of [
      applicationsPage(t.app.db, byName, 'activity', {}, 26),
      countMatches(t.app.db, byName, 10_001),
    ]) {
      expect(scans(await nodes(query))).toEqual([
        expect.objectContaining({ 'Node Type': 'Bitmap Index Scan', 'Index Name': 'users_name_trgm_idx' }),
      ]);
    }
    expect(await applicationsPage(t.app.db, byName, 'activity', {}, 26)).toHaveLength(3);

    const position = { at: '2026-10-02T12:00:00.000000Z', id: randomUUID() };
    // Given a range of start days, the page is one range of the start index (the list by start).
    const started = applicationsWhere({ start: new Date('2026-09-01'), end: new Date('2027-01-01') });
    for (const [where, order, index] of [
      [undefined, 'activity', 'users_updated_at_idx'],
      [started, 'start', 'users_created_at_idx'],
    ] as const)
      for (const [from, direction] of [
        [{ older: position }, 'Backward'],
        [{ newer: position }, 'Forward'],
      ] as const) {
        const all = await nodes(applicationsPage(t.app.db, where, order, from, 26));
        expect(scans(all), `${order} ${direction}`).toEqual([
          expect.objectContaining({
            'Node Type': 'Index Scan',
            'Index Name': index,
            'Scan Direction': direction,
          }),
        ]);
        // Neither the whole table read nor sorted (not even incrementally): the index gives the order.
        const read = all.filter((node) => node['Relation Name'] === 'users' || /Sort/.test(node['Node Type']));
        expect(read.map((node) => node['Node Type'])).toEqual(['Index Scan']);
      }

    // A day of starts with a filter most rows match: its capped count reads that day's range of the
    // start index alone (the filters' columns are in it: migration 0037), no row of the table.
    const aDayInProgress = applicationsWhere({
      status: 'IN_PROGRESS',
      start: new Date('2026-09-10'),
      end: new Date('2026-09-11'),
    });
    const counted = await nodes(countMatches(t.app.db, aDayInProgress, 10_001));
    expect(counted.filter((node) => node['Relation Name'] === 'users')).toEqual([
      expect.objectContaining({ 'Node Type': 'Index Only Scan', 'Index Name': 'users_created_at_idx' }),
    ]);

    // Two filters, each matching thousands: the capped count reads one filter's index alone, checked
    // on the other's column in it (migration 0038), not the table (a parallel sequential scan of
    // 77–140 ms at a million applications).
    const passwordFromFacebook = applicationsWhere({ next_step: 'PASSWORD', utm_source: 'facebook' });
    const twoFilters = await nodes(countMatches(t.app.db, passwordFromFacebook, 10_001));
    expect(twoFilters.filter((node) => node['Relation Name'] === 'users')).toEqual([
      expect.objectContaining({ 'Node Type': 'Index Only Scan', 'Index Name': expect.stringMatching(/_recent_idx$/) }),
    ]);
    expect(await countMatches(t.app.db, passwordFromFacebook, 10_001)).toEqual([{ count: 2_000 }]);
  });
});
