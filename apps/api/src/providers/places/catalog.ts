import { searchKey, type CountryCode } from '@provee/domain';
import type { CatalogRevision } from '../../db/catalog-revision.js';
import type { Db } from '../../db/client.js';
import { findCountryPlace, listCountryPlaces } from './catalog.store.js';
import type { AddressSearchProvider } from './types.js';

interface IndexedPlace {
  id: number;
  searchText: string;
  nameKey: string;
  nameLength: number;
  allowed: boolean;
  description: string;
}

interface AddressIndex {
  /** The catalogue revision it was built from. */
  revision: number;
  /** The places with a word that starts with a given prefix of up to PREFIX_LENGTH letters. */
  byPrefix: Map<string, IndexedPlace[]>;
}

/** Words are indexed by their first 1, 2 and 3 characters. */
const PREFIX_LENGTH = 3;

function indexPlaces(places: IndexedPlace[]): Map<string, IndexedPlace[]> {
  const byPrefix = new Map<string, IndexedPlace[]>();
  for (const place of places) {
    const prefixes = new Set<string>();
    for (const word of place.searchText.split(/[^a-z0-9]+/))
      for (let length = 1; length <= Math.min(PREFIX_LENGTH, word.length); length++)
        prefixes.add(word.slice(0, length));
    for (const prefix of prefixes) {
      const list = byPrefix.get(prefix);
      if (list) list.push(place);
      else byPrefix.set(prefix, [place]);
    }
  }
  return byPrefix;
}

/**
 * Ranked, accent-insensitive search over the catalogue's neighbourhoods: every word of the query
 * must start a word of the neighbourhood, its municipality or its state. Exact names first, then
 * names that start with the query, then served municipalities, then shorter names.
 *
 * It runs over an index in memory (the country's neighbourhoods, about 1.5 MB for the 12,675 of
 * the Dominican Republic): a few milliseconds of JavaScript instead of a query that reads every
 * neighbourhood, so the autocomplete costs the database nothing (docs/PERFORMANCE.md). The index is
 * rebuilt when the catalogue's revision moves on (an import, an operator's SQL): a search sees the
 * change within CATALOG_REVISION_CHECK_MS.
 */
export function createCatalogPlaces(db: Db, country: CountryCode, catalog: CatalogRevision): AddressSearchProvider {
  let index: AddressIndex | undefined;
  let loading: Promise<AddressIndex> | undefined;

  const load = async (revision: number): Promise<AddressIndex> => {
    const rows = await listCountryPlaces(db, country);
    return {
      revision,
      byPrefix: indexPlaces(
        rows.map((row) => ({
          id: row.id,
          searchText: row.searchText,
          nameKey: row.nameKey,
          nameLength: row.name.length,
          allowed: row.allowed,
          description: `${row.name}, ${row.city}, ${row.state}`,
        })),
      ),
    };
  };

  /** The index of the catalogue's current revision; one build at a time, shared by the searches meanwhile. */
  const current = async (): Promise<AddressIndex> => {
    const revision = await catalog.current();
    if (index?.revision === revision) return index;
    loading ??= load(revision)
      .then((built) => (index = built))
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };

  return {
    name: 'catalog',
    async search(query, limit) {
      const key = searchKey(query);
      const words = key.split(' ').filter(Boolean).slice(0, 6);
      if (words.length === 0 || key.length < 2) return [];
      // The candidates: the places with a word starting like the query's longest word.
      const { byPrefix } = await current();
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      const candidates = byPrefix.get(longest.slice(0, PREFIX_LENGTH)) ?? [];
      const starts = words.map((word) => ` ${word}`);
      const ranked = [];
      for (const place of candidates) {
        if (!starts.every((start) => place.searchText.includes(start))) continue;
        const rank = place.nameKey === key ? 0 : place.nameKey.startsWith(key) ? 1 : 2;
        ranked.push({ place, rank });
      }
      ranked.sort(
        (a, b) =>
          a.rank - b.rank ||
          Number(b.place.allowed) - Number(a.place.allowed) ||
          a.place.nameLength - b.place.nameLength ||
          a.place.id - b.place.id,
      );
      return ranked.slice(0, limit).map(({ place }) => ({
        place_id: `catalog:${place.id}`,
        description: place.description,
      }));
    },
    async resolve(placeId) {
      const id = /^catalog:(\d{1,10})$/.exec(placeId)?.[1];
      // Ten digits may exceed the integer column (2147483648 made the query fail): no such place.
      if (!id || Number(id) > 2_147_483_647) return null;
      const row = await findCountryPlace(db, country, Number(id));
      if (!row) return null;
      return {
        zip_code: row.zip ?? '',
        street_name: '',
        street_number: '',
        neighborhood: row.name,
        city: row.city,
        state: row.state,
      };
    },
  };
}
