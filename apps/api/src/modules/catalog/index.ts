// What other modules use of the catalogue.
export { listBusinessTypes, listSalesRanges, resolveAddressNames } from './catalog.service.js';
