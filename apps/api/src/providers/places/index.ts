import type { Config } from '../../config.js';
import type { CatalogRevision } from '../../db/catalog-revision.js';
import type { Db } from '../../db/client.js';
import { createCatalogPlaces } from './catalog.js';
import { createGooglePlaces } from './google.js';

import type { AddressSearchProvider } from './types.js';

export type { AddressSearchProvider, PlaceDetails, PlaceSuggestion } from './types.js';
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
