import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { CATALOG_REVISION_CHECK_MS } from '../../db/catalog-revision.js';
import { catalogMunicipalities, catalogNeighborhoods, catalogRevision } from '../../db/schema.js';
import { API_ROOT } from '../../paths.js';
import { createTestApp, manualClock, type TestApp, useTestApp, withTestApp } from '../../test/test-app.js';
import { parseDelimited } from './csv.js';
import { parseOneDo, parseSepomex } from './import.js';
import { importUnits } from './import.store.js';

/** The shared ONE file (../shared/data), read where it is: never copied into the project. */
export const ONE_FILE = join(API_ROOT, '../../../shared/data/do-territorial-division-2020.csv');

/** A small SEPOMEX file in the official shape (notice line, header, pipe-delimited rows). */
const SEPOMEX_FIXTURE = [
  'El Catálogo Nacional de Códigos Postales, es elaborado por Correos de México y se proporciona en forma gratuita.',
  'd_codigo|d_asenta|d_tipo_asenta|D_mnpio|d_estado|d_ciudad|d_CP|c_estado|c_oficina|c_CP|c_tipo_asenta|c_mnpio|id_asenta_cpcons|d_zona|c_cve_ciudad',
  '55000|San Cristóbal Centro|Colonia|Ecatepec de Morelos|México|Ecatepec de Morelos|55001|15|55001||09|033|0001|Urbano|05',
  '55010|La Mora|Colonia|Ecatepec de Morelos|México|Ecatepec de Morelos|55001|15|55001||09|033|0002|Urbano|05',
  '55010|Los Laureles|Fraccionamiento|Ecatepec de Morelos|México|Ecatepec de Morelos|55001|15|55001||21|033|0003|Urbano|05',
  '52100|San Mateo Atenco Centro|Colonia|San Mateo Atenco|México|San Mateo Atenco|52101|15|52101||09|076|0004|Urbano|',
].join('\r\n');

describe('catalogue: seed and lists', () => {
  const t = useTestApp();

  it('ships the 32 provinces and 158 municipalities of the Dominican Republic', async () => {
    const states = (await t.app.inject({ method: 'GET', url: '/api/v1/states' })).json().data;
    expect(states).toHaveLength(32);
    const dn = states.find((state: { name: string }) => state.name === 'Distrito Nacional');
    const cities = (await t.app.inject({ method: 'GET', url: `/api/v1/states/${dn.id}/cities` })).json().data;
    expect(cities).toEqual([{ id: expect.any(Number), name: 'Santo Domingo de Guzmán', allowed: true }]);
    const all = await t.app.inject({ method: 'GET', url: '/api/v1/cities' });
    expect(all.json().data).toHaveLength(158);
    expect(all.headers['cache-control']).toBe('no-cache');
  });

  it("address search works on a fresh start with nothing imported: 'Naco', 'centro de los heroes'", async () => {
    const naco = (await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=Naco' }))
      .json()
      .data.map((item: { description: string }) => item.description);
    expect(naco).toContain('Ensanche Naco, Santo Domingo de Guzmán, Distrito Nacional');
    const heroes = (
      await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=centro%20de%20los%20heroes' })
    ).json().data;
    expect(heroes[0].description).toBe('Centro de Los Héroes, Santo Domingo de Guzmán, Distrito Nacional');
  });

  it('GET /v1/cities?only-allowed=true lists only the served municipalities', async () => {
    const allowed = (await t.app.inject({ method: 'GET', url: '/api/v1/cities?only-allowed=true' })).json().data;
    expect(allowed.map((city: { name: string }) => city.name).sort()).toEqual(
      [
        'Boca Chica',
        'Los Alcarrizos',
        'Pedro Brand',
        'San Antonio de Guerra',
        'Santiago',
        'Santo Domingo Este',
        'Santo Domingo Norte',
        'Santo Domingo Oeste',
        'Santo Domingo de Guzmán',
      ].sort(),
    );
    expect(allowed.every((city: { allowed: boolean }) => city.allowed)).toBe(true);
  });

  it('business types end with Otros; sales ranges come in pesos, low to high', async () => {
    const types = (await t.app.inject({ method: 'GET', url: '/api/v1/business-types' })).json().data;
    expect(types[0]).toBe('Colmado');
    expect(types.at(-1)).toBe('Otros');
    const { ranges } = (await t.app.inject({ method: 'GET', url: '/api/v1/sales-ranges' })).json().data;
    expect(ranges).toHaveLength(5);
    expect(ranges[0]).toEqual({ id: expect.any(Number), range_description: 'Menos de RD$10,000' });
  });

  it('a zip code that is not in the catalogue is a 404; a malformed one a 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/zip-codes/99999' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/zip-codes/9' })).statusCode).toBe(400);
  });
});

describe('importer: ONE territorial division (the shared file)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 120_000);
  afterAll(() => t.close());

  it('reads 32 provinces, 158 municipalities and 12,675 neighbourhoods: the shipped ones, so it adds only what went missing', async () => {
    const units = parseOneDo(readFileSync(ONE_FILE, 'utf8'));
    const fresh = await importUnits(t.app.db, 'do', units);
    expect(fresh).toMatchObject({
      read: 12_675,
      states: { total: 32, added: 0 },
      municipalities: { total: 158, added: 0 },
      neighborhoods: { total: 12_675, added: 0 },
    });
    await t.app.db
      .delete(catalogNeighborhoods)
      .where(inArray(catalogNeighborhoods.code, ['03100101010104200', '03100101010103800']));
    const first = await importUnits(t.app.db, 'do', units);
    expect(first.neighborhoods).toEqual({ total: 12_675, added: 2 });
    const again = await importUnits(t.app.db, 'do', units);
    expect(again.neighborhoods).toEqual({ total: 12_675, added: 0 });
  }, 120_000);

  it("keeps which municipalities are served (the importer never touches 'allowed')", async () => {
    const allowed = (await t.app.inject({ method: 'GET', url: '/api/v1/cities?only-allowed=true' })).json().data;
    expect(allowed).toHaveLength(9);
  });

  it("finds 'centro de los heroes' → Centro de Los Héroes (Distrito Nacional) first", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=centro%20de%20los%20heroes' });
    expect(res.json().data[0].description).toBe('Centro de Los Héroes, Santo Domingo de Guzmán, Distrito Nacional');
  });

  it("finds 'mata hambre' → Mata Hambre, the served one first", async () => {
    const [first, second] = (
      await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=mata%20hambre' })
    ).json().data;
    expect(first.description).toBe('Mata Hambre, Santo Domingo de Guzmán, Distrito Nacional');
    expect(second.description).toMatch(/^Mata Hambre, /);
  });

  it('is accent- and case-insensitive and matches the municipality too', async () => {
    const data = (await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=PIANTINI' })).json().data;
    expect(data[0].description).toMatch(/^Piantini, /);
    const both = (await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=los%20heroes%20bonao' })).json()
      .data;
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((item: { description: string }) => /Los Héroes/.test(item.description))).toBe(true);
  });

  it('answers in under 25 ms on the full file', async () => {
    const queries = ['centro de los heroes', 'mata hambre', 'villa', 'los mina', 'ensanche luperon', 'arroyo hondo'];
    // Untimed first: a new database thread runs its WebAssembly unoptimised until it has warmed up.
    for (const q of queries)
      await t.app.inject({ method: 'GET', url: `/api/v1/addresses/search?q=${encodeURIComponent(q)}` });
    const timings: number[] = [];
    for (const q of queries) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/addresses/search?q=${encodeURIComponent(q)}` });
      timings.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
    }
    timings.sort((a, b) => a - b);
    const median = timings[Math.floor(timings.length / 2)]!;
    console.log(
      `address search: median ${median.toFixed(1)} ms, slowest ${timings.at(-1)!.toFixed(1)} ms over ${timings.length} queries`,
    );
    // The index is in memory (providers/places/catalog.ts): a search is JavaScript over 12,675
    // strings, no query; the bound is loose for a busy CI machine but would catch a database round trip per search on PGlite (~40 ms idle).
    expect(median).toBeLessThan(25);
  });

  it('the chosen place fills the form: neighbourhood, municipality, province', async () => {
    const [first] = (await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=mata%20hambre' })).json()
      .data;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/addresses/${first.place_id}` });
    expect(res.json().data).toMatchObject({
      zip_code: '',
      street_name: '',
      street_number: '',
      neighborhood: 'Mata Hambre',
      city: 'Santo Domingo de Guzmán',
      state: 'Distrito Nacional',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/addresses/catalog:999999999' })).statusCode).toBe(404);
    // Past the integer column (found by the fuzzing suite: the query failed with a 500).
    for (const id of ['2147483648', '9999999999']) {
      const beyond = await t.app.inject({ method: 'GET', url: `/api/v1/addresses/catalog:${id}` });
      expect(beyond.statusCode, id).toBe(404);
      expect(beyond.json()).toMatchObject({ code: 'PLACE_NOT_FOUND' });
    }
  });
});

describe('catalogue answers: cached by the browser, revalidated by ETag', () => {
  const clock = manualClock();
  const t = useTestApp({}, undefined, { clock });

  it('answers 304 while nothing changed, and a new ETag with the new list after an import', async () => {
    const dn = (await t.app.inject({ method: 'GET', url: '/api/v1/cities?only-allowed=true' }))
      .json()
      .data.find((city: { name: string }) => city.name === 'Santo Domingo de Guzmán');
    const url = `/api/v1/cities/${dn.id}/neighborhoods`;
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.json().data.map((n: { name: string }) => n.name)).toContain('Ensanche Naco');

    const unchanged = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': `W/${etag}` } })).statusCode).toBe(
      304,
    );

    // An import corrects a name: once the server has seen the catalogue's new revision (within
    // CATALOG_REVISION_CHECK_MS), the browser's copy no longer matches, it gets the new list.
    const naco = parseOneDo(readFileSync(ONE_FILE, 'utf8')).find((unit) => unit.code === '03100101010104200')!;
    await importUnits(t.app.db, 'do', [{ ...naco, name: 'Ensanche Naco Norte' }]);
    clock.advance(CATALOG_REVISION_CHECK_MS / 1000);
    const after = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.json().data.map((n: { name: string }) => n.name)).toContain('Ensanche Naco Norte');
  });

  it('the states, cities, business types and sales ranges carry an ETag too; address search does not', async () => {
    for (const url of ['/api/v1/states', '/api/v1/cities', '/api/v1/business-types', '/api/v1/sales-ranges']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers.etag, url).toMatch(/^"/);
      expect(
        (await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': res.headers.etag as string } }))
          .statusCode,
        url,
      ).toBe(304);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=naco' })).headers.etag,
    ).toBeUndefined();
  });
});

describe('catalogue answers: kept per catalogue revision', () => {
  it("an operator's change moves the revision on; every list shows it once the revision is read again, not before", async () => {
    const clock = manualClock();
    const t = await createTestApp({}, undefined, { clock });
    try {
      const served = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/v1/cities?only-allowed=true' }))
          .json()
          .data.map((city: { name: string }) => city.name);
      const revision = async () => (await t.app.db.select().from(catalogRevision))[0]!.revision;
      const before = await served();
      expect(before).not.toContain('Bonao');
      const at = await revision();

      // An operator serves one more municipality, straight in the database.
      await t.app.db
        .update(catalogMunicipalities)
        .set({ allowed: true })
        .where(eq(catalogMunicipalities.name, 'Bonao'));
      expect(await revision()).toBe(at + 1);
      // Kept: the same answer, from memory, until the revision is read again.
      expect(await served()).toEqual(before);
      clock.advance(CATALOG_REVISION_CHECK_MS / 1000);
      expect(await served()).toContain('Bonao');

      // A statement that changes no row still moves it on (a seed at start): the lists are rebuilt, the same.
      await t.app.db.update(catalogMunicipalities).set({ allowed: true }).where(eq(catalogMunicipalities.id, -1));
      expect(await revision()).toBe(at + 2);
      clock.advance(CATALOG_REVISION_CHECK_MS / 1000);
      expect(await served()).toContain('Bonao');
    } finally {
      await t.close();
    }
  });
});

describe('catalogue revision', () => {
  it('20 catalogue writes at once each move it on: no lost update (PostgreSQL runs them in parallel)', async () => {
    await withTestApp({}, async (t) => {
      const revision = async () => (await t.app.db.select().from(catalogRevision))[0]!.revision;
      const at = await revision();
      await Promise.all(
        Array.from({ length: 20 }, () =>
          t.app.db.transaction((tx) =>
            tx.update(catalogMunicipalities).set({ allowed: false }).where(eq(catalogMunicipalities.name, 'Bonao')),
          ),
        ),
      );
      expect(await revision()).toBe(at + 20);
    });
  });
});

describe('address search index (in memory)', () => {
  it("sees an import made by another process once the catalogue's revision is read again", async () => {
    const clock = manualClock();
    const t = await createTestApp({}, undefined, { clock });
    try {
      const search = async (q: string) =>
        (await t.app.inject({ method: 'GET', url: `/api/v1/addresses/search?q=${encodeURIComponent(q)}` }))
          .json()
          .data.map((item: { description: string }) => item.description);
      expect(await search('naco')).toContain('Ensanche Naco, Santo Domingo de Guzmán, Distrito Nacional');
      expect(await search('naco oriental')).toEqual([]);

      // The importer (a CLI, i.e. another process) corrects the name straight in the database.
      const naco = parseOneDo(readFileSync(ONE_FILE, 'utf8')).find((unit) => unit.code === '03100101010104200')!;
      await importUnits(t.app.db, 'do', [{ ...naco, name: 'Ensanche Naco Oriental' }]);
      clock.advance(CATALOG_REVISION_CHECK_MS / 1000);
      expect(await search('naco oriental')).toEqual([
        'Ensanche Naco Oriental, Santo Domingo de Guzmán, Distrito Nacional',
      ]);
      // The place it answers resolves to the corrected name.
      const [found] = (await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=naco%20oriental' })).json()
        .data;
      const place = await t.app.inject({ method: 'GET', url: `/api/v1/addresses/${found.place_id}` });
      expect(place.json().data).toMatchObject({
        neighborhood: 'Ensanche Naco Oriental',
        city: 'Santo Domingo de Guzmán',
      });
    } finally {
      await t.close();
    }
  });

  it('a query only of punctuation or one letter finds nothing (no full list)', async () => {
    await withTestApp({}, async (t) => {
      for (const q of ['--', 'a', '¡!'])
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/v1/addresses/search?q=${encodeURIComponent(q)}` })).json()
            .data,
          q,
        ).toEqual([]);
    });
  });
});

describe('importer: SEPOMEX', () => {
  it('loads states, municipalities, colonias with zip codes; idempotent; the zip lookup answers', async () => {
    await withTestApp({ COUNTRY: 'mx' }, async (t) => {
      const units = parseSepomex(SEPOMEX_FIXTURE);
      expect(units).toHaveLength(4);
      const report = await importUnits(t.app.db, 'mx', units);
      expect(report).toMatchObject({ read: 4, municipalities: { total: 2, added: 1 }, neighborhoods: { total: 4 } });
      // The seed's 'San Cristóbal Centro' (55000) is the same colonia: it is not duplicated.
      expect(report.neighborhoods.added).toBe(3);
      expect((await importUnits(t.app.db, 'mx', units)).neighborhoods.added).toBe(0);

      const res = await t.app.inject({ method: 'GET', url: '/api/v1/zip-codes/55010' });
      expect(res.json().data.map((item: { neighborhood: string }) => item.neighborhood)).toEqual([
        'La Mora',
        'Los Laureles',
      ]);
      expect(res.json().data[0]).toMatchObject({ city: 'Ecatepec de Morelos', state: 'México' });
      // A municipality new to the catalogue is not served until an operator says so.
      const allowed = (await t.app.inject({ method: 'GET', url: '/api/v1/cities?only-allowed=true' })).json().data;
      expect(allowed.map((city: { name: string }) => city.name)).not.toContain('San Mateo Atenco');
    });
  });

  it('refuses a file in another format with a clear message', () => {
    expect(() => parseSepomex('a,b,c\n1,2,3')).toThrow(/SEPOMEX/);
    expect(() => parseOneDo('a|b\n1|2')).toThrow(/ONE/);
  });
});

describe('CSV parsing', () => {
  it('handles quotes, doubled quotes, commas and CRLF', () => {
    expect(parseDelimited('a,"b, c","d ""e"""\r\n1,2,3\n')).toEqual([
      ['a', 'b, c', 'd "e"'],
      ['1', '2', '3'],
    ]);
  });
});
