import { searchKey } from '@provee/domain';

/** What address search matches against: the neighbourhood, its municipality and its state. */
export function neighborhoodSearchText(name: string, municipality: string, state: string): string {
  return ` ${searchKey(name)} | ${searchKey(municipality)} | ${searchKey(state)} `;
}

/** Mexican neighbourhoods have no stable official code: zip code plus folded name is the key. */
export function neighborhoodCode(zip: string, name: string): string {
  return `${zip}:${searchKey(name)}`;
}
