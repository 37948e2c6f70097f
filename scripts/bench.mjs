// npm run bench: the benchmarks, against the built app (run `npm run build` first).
await import('./bench/journeys.mjs');
