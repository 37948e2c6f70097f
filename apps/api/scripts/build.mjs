// Bundles the API (and the shared domain package, which ships as TypeScript) into dist/server.js.
// Third-party packages stay external and load from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@provee/'));

await build({
  entryPoints: [
    ...['server', 'catalog-import', 'staff-create'].map(
      (name) => new URL(`../src/${name}.ts`, import.meta.url).pathname,
    ),
    // The embedded database's thread (src/db/pglite-thread.ts loads it from dist/).
    { in: new URL('../src/db/pglite-worker.ts', import.meta.url).pathname, out: 'pglite-worker' },
  ],
  outdir: new URL('../dist/', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
console.log('api built: apps/api/dist/server.js, catalog-import.js, staff-create.js, pglite-worker.js');
