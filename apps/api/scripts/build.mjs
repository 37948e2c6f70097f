// Bundles the API (and the shared domain package, which ships as TypeScript) into dist/server.js.
// Third-party packages stay external and load from node_modules, but postgres.js, which is bundled
// with a fix for a connection the server closes (scripts/postgres-patch.mjs).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { patchPostgresConnection } from './postgres-patch.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@provee/') && name !== 'postgres');

let postgresPatched = 0;
/** postgres.js's connection.js, patched as it is bundled. */
const patchPostgres = {
  name: 'patch-postgres',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/]postgres[\\/]src[\\/]connection\.js$/ }, async (args) => {
      postgresPatched += 1;
      return { contents: patchPostgresConnection(await readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};

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
  plugins: [patchPostgres],
});
if (postgresPatched === 0)
  throw new Error('postgres.js was not bundled: its connection fix (scripts/postgres-patch.mjs) is missing');
console.log('api built: apps/api/dist/server.js, catalog-import.js, staff-create.js, pglite-worker.js');
