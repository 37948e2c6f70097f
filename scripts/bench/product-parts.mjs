// The parts of the product's request path that come from libraries, as bare-fastify.mjs adds them
// (BARE_FEATURES), each with the library and the options the product uses: what every answer of
// the product carries before a line of its own code. `npm run bench:ladder` adds them one at a time;
// `npm run bench` measures bare Fastify with all of them and a logger that writes no request line,
// and prints how far each read could go with them ("with the parts", docs/PERFORMANCE.md).
export const PRODUCT_PARTS = [
  ['request id (a UUID)', 'request-id'],
  ['security headers (one onSend callback)', 'security-headers'],
  ['flood guard (@fastify/rate-limit)', 'rate-limit'],
  ['load shedding (@fastify/under-pressure)', 'load-shedding'],
  ['metrics (prom-client, one onResponse callback)', 'metrics'],
];

/** Every part's feature, as bare-fastify.mjs's BARE_FEATURES lists them (comma-separated). */
export const ALL_FEATURES = PRODUCT_PARTS.map(([, feature]) => feature);
