import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applicationsPage, applicationsWhere, countMatches, searchPage } from './applications.store.js';

/**
 * Issue 35: how a name search is read depends on how many applications the planner expects the name
 * to match, which it takes from the statistics on the trigram index's expression (migration 0039).
 * Names drawn as common ones are (20 first names, 20 last names, every fifth with a second one), as
 * perf:backoffice seeds them. With PostgreSQL's default statistics the estimate of a name of two
 * common words is off by a step of the histogram: here 2 for 50 (ANALYZE reads all 20,000 rows, so
 * it is always the same), at 100,000 applications 774 for 278, and that page walked the whole list in
 * its order (18–25 ms) instead of reading its matches through the index (1.5–3 ms).
 * A file of its own: a fresh database, whose statistics are those of these rows alone.
 */
const FIRST = ['María', 'José', 'Juan', 'Ana', 'Luis', 'Carmen', 'Pedro', 'Rosa', 'Miguel', 'Juana'];
const FIRST_MORE = ['Ramón', 'Francisca', 'Rafael', 'Altagracia', 'Manuel', 'Mercedes', 'Carlos', 'Yolanda'];
const LAST = ['Rodríguez', 'Pérez', 'García', 'Martínez', 'Sánchez', 'Gómez', 'Díaz', 'Reyes', 'Santos'];
const LAST_MORE = ['Hernández', 'Ramírez', 'Castillo', 'Núñez', 'Jiménez', 'Peña', 'Almonte', 'Vásquez', 'Féliz'];
const FIRST_NAMES = [...FIRST, ...FIRST_MORE, 'Jorge', 'Dulce'];
const LAST_NAMES = [...LAST, ...LAST_MORE, 'Polanco', 'Tavárez'];
const APPLICATIONS = 20_000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Plan Rows': number;
  Plans?: PlanNode[];
}

describe('back office: a name search read as its statistics say (PostgreSQL and PGlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const list = (names: string[]) => sql`string_to_array(${names.join('|')}, '|')`;
    // Coprime lengths walked by two strides: every first name meets every last name, evenly.
    await t.app.db.execute(sql`insert into users (phone_e164, next_step, name, lastname, maternal_lastname, updated_at)
      select '+1777' || lpad(n::text, 7, '0'), 'TAX_ACCOUNT',
        (${list(FIRST_NAMES)})[1 + n % 20], (${list(LAST_NAMES)})[1 + (n / 20) % 20],
        case when n % 5 = 0 then (${list(LAST_NAMES)})[1 + (n / 7) % 20] end,
        timestamptz '2026-01-01' + n * interval '1 minute'
      from generate_series(1, ${APPLICATIONS}::int) as n`);
    await t.app.db.execute(sql`analyze users`);
  });
  afterAll(() => t.close());

  const planOf = async (query: SQLWrapper) => {
    const result = await t.app.db.execute(sql`explain (format json) ${query}`);
    const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
    const value = Object.values(row!)[0];
    return ((typeof value === 'string' ? JSON.parse(value) : value) as [{ Plan: PlanNode }])[0].Plan;
  };
  const indexesRead = async (query: SQLWrapper) => {
    const read: string[] = [];
    const visit = (node: PlanNode) => {
      if (node['Index Name']?.startsWith('users_')) read.push(`${node['Node Type']} ${node['Index Name']}`);
      node.Plans?.forEach(visit);
    };
    visit(await planOf(query));
    return read;
  };
  const byName = (words: string) => applicationsWhere({ search: { words } });

  it('the planner expects each name to match about as many applications as it does', async () => {
    for (const words of ['María Peña', 'Juan Pérez', 'Dulce Tavárez', 'Rosa García', 'ernánd', 'Peña Díaz']) {
      const matching = t.app.db.select({ id: users.id }).from(users).where(byName(words));
      const actual = (await matching).length;
      const expected = (await planOf(matching))['Plan Rows'];
      expect(actual, words).toBeGreaterThan(0);
      expect(expected / actual, `${words}: ${expected} expected, ${actual} match`).toBeGreaterThanOrEqual(0.5);
      expect(expected / actual, `${words}: ${expected} expected, ${actual} match`).toBeLessThanOrEqual(2);
    }
  });

  it('a first and a last name (0.25% of applications): its page and its count read the name’s matches through the trigram index', async () => {
    const mariaPena = byName('María Peña');
    for (const query of [
      applicationsPage(t.app.db, mariaPena, 'activity', {}, 26),
      countMatches(t.app.db, mariaPena, 10_001),
    ])
      expect(await indexesRead(query)).toEqual(['Bitmap Index Scan users_name_trgm_idx']);
  });

  it('the list’s name search finds the matches once, through the trigram index, and reads only its page’s rows', async () => {
    const mariaPena = searchPage(t.app.db, byName('María Peña'), 'activity', {}, 26, 10_001);
    const read = await indexesRead(mariaPena);
    expect(read.filter((index) => index.includes('users_name_trgm_idx'))).toEqual([
      'Bitmap Index Scan users_name_trgm_idx',
    ]);
    expect(read.filter((index) => !index.includes('users_name_trgm_idx'))).toEqual(['Index Scan users_pkey']);
    const rows = await mariaPena;
    expect(rows).toHaveLength(26);
    for (const row of rows) expect(`${row.name} ${row.lastname}`).toBe('María Peña');
    expect(rows[0]!.matched).toBe(50);
  });

  it('part of a common last name (6%): its page walks the list in its order, as its 26 rows come early', async () => {
    const hernandez = applicationsPage(t.app.db, byName('ernánd'), 'activity', {}, 26);
    expect(await indexesRead(hernandez)).toEqual(['Index Scan users_updated_at_idx']);
    expect(await hernandez).toHaveLength(26);
  });
});
