// What other modules use of the catalogue.
export { findMunicipalityState, findNeighborhoodPlace, listBusinessTypes, listSalesRanges } from './catalog.store.js';
export { resolveAddressNames } from './place-names.js';
export { seedCatalog } from './seed.store.js';
