// What other modules use of the catalogue.
export { addressInCatalog, type CatalogAddress } from './address-in-catalog.js';
export { findMunicipalityState, findNeighborhoodPlace, listBusinessTypes, listSalesRanges } from './catalog.store.js';
export { resolveAddressNames } from './place-names.js';
export { seedCatalog } from './seed.store.js';
