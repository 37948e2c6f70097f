// The parts of the product's request path that come from libraries, as bare-fastify.mjs adds them
// (BARE_FEATURES), each with the library and the options the product uses: what every answer of
// the product carries before a line of its own code. `npm run bench:ladder` adds them one at a time;
// `npm run bench` measures bare Fastify with all of them and a logger that writes no request line,
// the floor a read's goal is weighed against (docs/PERFORMANCE.md).
export const PRODUCT_PARTS = [
  ['request id (a UUID)', 'request-id'],
  ['security headers (one onSend callback)', 'security-headers'],
  ['flood guard (@fastify/rate-limit)', 'rate-limit'],
  ['load shedding (@fastify/under-pressure)', 'load-shedding'],
  ['metrics (prom-client, one onResponse callback)', 'metrics'],
];

/** bare-fastify.mjs's BARE_FEATURES for every part. */
export const ALL_PARTS = PRODUCT_PARTS.map(([, feature]) => feature).join(',');
