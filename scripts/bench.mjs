// npm run bench: the API's reads and the phone proof next to their limits (scripts/bench/endpoints.mjs),
// against the built app (run `npm run build` first). The 100 concurrent journeys: npm run bench:journeys.
await import('./bench/endpoints.mjs');
