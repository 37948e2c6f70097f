import type { CountryCode } from '@provee/domain';
import { PlacesError } from './places-error.js';
import type { AddressSearchProvider, PlaceDetails } from './types.js';

interface GoogleOptions {
  apiUrl: string;
  apiKey: string;
  country: CountryCode;
  timeoutMs?: number;
}

interface Component {
  long_name: string;
  types: string[];
}

/** Google Places Autocomplete and Details (legacy JSON API), restricted to the country, in Spanish. */
export function createGooglePlaces(options: GoogleOptions): AddressSearchProvider {
  const base = options.apiUrl.replace(/\/$/, '');
  const call = async (path: string, params: Record<string, string>) => {
    const url = `${base}${path}?${new URLSearchParams({ ...params, key: options.apiKey, language: 'es' })}`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5_000) });
    } catch (error) {
      throw new PlacesError(`google places unreachable: ${(error as Error).message}`);
    }
    const body = (await response.json().catch(() => ({}))) as { status?: string; error_message?: string } & Record<
      string,
      unknown
    >;
    if (!response.ok || (body.status !== 'OK' && body.status !== 'ZERO_RESULTS')) {
      throw new PlacesError(
        `google places answered ${response.status} ${body.status ?? ''} ${body.error_message ?? ''}`,
      );
    }
    return body;
  };
  const pick = (components: Component[], ...types: string[]) =>
    types.map((type) => components.find((component) => component.types.includes(type))?.long_name).find(Boolean) ?? '';

  return {
    name: 'google',
    async search(query, limit) {
      const body = await call('/maps/api/place/autocomplete/json', {
        input: query,
        components: `country:${options.country}`,
        types: 'address',
      });
      const predictions = (body.predictions as { place_id: string; description: string }[] | undefined) ?? [];
      return predictions
        .slice(0, limit)
        .map((prediction) => ({ place_id: `google:${prediction.place_id}`, description: prediction.description }));
    },
    async resolve(placeId): Promise<PlaceDetails | null> {
      const id = /^google:([\w-]{1,300})$/.exec(placeId)?.[1];
      if (!id) return null;
      const body = await call('/maps/api/place/details/json', { place_id: id, fields: 'address_component' });
      const components = ((body.result as { address_components?: Component[] } | undefined)?.address_components ??
        []) as Component[];
      if (components.length === 0) return null;
      return {
        zip_code: pick(components, 'postal_code'),
        street_name: pick(components, 'route'),
        street_number: pick(components, 'street_number'),
        neighborhood: pick(components, 'neighborhood', 'sublocality_level_1', 'sublocality'),
        city: pick(components, 'administrative_area_level_2', 'locality'),
        state: pick(components, 'administrative_area_level_1'),
      };
    },
  };
}
