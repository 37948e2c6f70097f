// Bundles the API (and the shared domain package, which ships as TypeScript) into dist/server.js.
// Third-party packages stay external and load from node_modules, but postgres.js, which is bundled
// with a fix for a connection the server closes (scripts/postgres-patch.mjs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { patchPostgresConnection } from './postgres-patch.mjs';

const require = createRequire(import.meta.url);
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
    ...['server', 'catalog-import', 'staff-create', 'initial-database'].map(
      (name) => new URL(`../src/${name}.ts`, import.meta.url).pathname,
    ),
    // The embedded database's thread (src/db/pglite-thread.ts loads it from dist/).
    { in: new URL('../src/db/pglite-worker.ts', import.meta.url).pathname, out: 'pglite-worker' },
    // The contract PDFs' worker threads (src/worker-pool.ts loads it from dist/; decision 021).
    { in: new URL('../src/modules/signing/signing-worker.ts', import.meta.url).pathname, out: 'signing-worker' },
    // The staff password rules' worker thread (src/modules/staff/password-link.routes.ts).
    { in: new URL('../src/modules/staff/password-worker.ts', import.meta.url).pathname, out: 'password-worker' },
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
console.log(
  'api built: apps/api/dist/server.js, catalog-import.js, staff-create.js, pglite-worker.js, signing-worker.js, password-worker.js',
);

// The database a first start copies (src/db/initial-database.ts): made again only when what it is
// made of changed (the migrations, the catalogue and its seed, the domain rules the seed uses, the
// PGlite version), ~7 s.
const inputs = createHash('sha256');
for (const dir of ['../src/db/migrations', '../src/modules/catalog', '../../../packages/domain/src']) {
  const root = new URL(`${dir}/`, import.meta.url);
  for (const file of readdirSync(root, { recursive: true }).sort()) {
    const path = new URL(file, root);
    if (statSync(path).isFile() && !/\.test\.ts$/.test(file))
      inputs.update(`${dir}/${file}\0`).update(readFileSync(path));
  }
}
// PGlite's own version (its package.json is not exported: found beside its entry).
const pgliteDir = require.resolve('@electric-sql/pglite').replace(/[\\/]dist[\\/].*$/, '');
inputs.update(JSON.parse(readFileSync(join(pgliteDir, 'package.json'), 'utf8')).version);
const digest = inputs.digest('hex');
const stamp = new URL('../dist/initial-database/inputs.sha256', import.meta.url);
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
  console.log('api initial database: up to date (dist/initial-database)');
} else {
  const started = performance.now();
  execFileSync(process.execPath, [new URL('../dist/initial-database.js', import.meta.url).pathname], {
    stdio: 'inherit',
  });
  writeFileSync(stamp, digest);
  console.log(`api initial database: dist/initial-database (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
