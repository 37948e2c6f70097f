import type { Config } from '../../config.js';
import type { CatalogRevision } from '../../db/catalog-revision.js';
import type { Db } from '../../db/client.js';
import { createCatalogPlaces } from './catalog.js';
import { createGooglePlaces } from './google.js';

export interface PlaceSuggestion {
  place_id: string;
  description: string;
}

/** A chosen place, as far as the provider knows it; the address form fills in the rest. */
export interface PlaceDetails {
  zip_code: string;
  street_name: string;
  street_number: string;
  neighborhood: string;
  city: string;
  state: string;
}

/** Address autocomplete restricted to the configured country. */
export interface AddressSearchProvider {
  name: 'catalog' | 'google';
  search(query: string, limit: number): Promise<PlaceSuggestion[]>;
  resolve(placeId: string): Promise<PlaceDetails | null>;
}

export { PlacesError } from './places-error.js';

export function createAddressSearch(config: Config, db: Db, catalog: CatalogRevision): AddressSearchProvider {
  if (config.ADDRESS_PROVIDER === 'google') {
    return createGooglePlaces({
      apiUrl: config.GOOGLE_PLACES_API_URL,
      apiKey: config.GOOGLE_PLACES_API_KEY!,
      country: config.COUNTRY,
    });
  }
  return createCatalogPlaces(db, config.COUNTRY, catalog);
}
