// What every provider of this kind is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.

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
