// Issue 13, suite 2: input fuzzing with more requests than `npm test` sends.
//   npm run fuzz -- --runs 200 [--seed 123]
// Runs apps/api/test/reliability/fuzz.test.ts with FUZZ_RUNS random requests per operation on
// PGlite, then on PostgreSQL when DATABASE_URL is set; the test prints its figures and a line per
// operation. A new seed each run unless --seed is given (the figures print it: FUZZ_SEED=… replays
// a run).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = join(import.meta.dirname, '../..');
const TEST_FILE = 'apps/api/test/reliability/fuzz.test.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '200' }, seed: { type: 'string' } },
  strict: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 0) {
  console.error(`--runs must be a whole number, not ${JSON.stringify(values.runs)}`);
  process.exit(2);
}
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
if (!/^\d+$/.test(seed)) {
  console.error(`--seed must be a whole number, not ${JSON.stringify(seed)}`);
  process.exit(2);
}

const databases = [
  { project: 'api-pglite', env: { TEST_DB: 'pglite' } },
  ...(process.env.DATABASE_URL ? [{ project: 'api-postgres', env: { TEST_DB: 'postgres' } }] : []),
];
if (!process.env.DATABASE_URL) console.log('DATABASE_URL is not set: PGlite only.');

let failed = false;
for (const { project, env } of databases) {
  console.log(`\n== ${project}: FUZZ_RUNS=${runs} FUZZ_SEED=${seed}`);
  const result = spawnSync(
    'npx',
    ['vitest', 'run', '--project', project, TEST_FILE, '-t', 'fuzzes every route', '--reporter', 'default'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env, FUZZ_RUNS: String(runs), FUZZ_SEED: seed, FUZZ_TABLE: '1' },
    },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
