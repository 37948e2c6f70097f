/** 'Peña Núñez' → 'PENA NUNEZ': uppercase without accents (ñ becomes n too). */
export function foldAccents(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** For matching and search: lower case, no accents, single spaces, letters and digits only. */
export function searchKey(value: string): string {
  return foldAccents(value)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Trims and collapses inner runs of spaces (what the fields do on blur). */
export function tidySpaces(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}
