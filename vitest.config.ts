import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** Test-only suites that need the API's test database (so not the `build` project). */
const API_RELIABILITY = 'apps/api/test/reliability';

/**
 * Suites that hold the API to a time budget while it does CPU-heavy work (a health call within 100 ms
 * while PDFs are built and 36-megapixel photos decoded, the event loop never busy past 30–100 ms).
 * They run after every other suite, one file at a time and one database after the other, so that no
 * other suite's servers share the machine's two cores with the work they time.
 */
const TIMED = [
  `${API_RELIABILITY}/heavy-work.test.ts`,
  'apps/api/src/modules/identity/decode.test.ts',
  'apps/api/src/modules/signing/signing-load.test.ts',
  'apps/api/src/worker-pool.test.ts',
];

const apiProject = (db: 'pglite' | 'postgres', timed = false): TestProjectInlineConfiguration => ({
  test: {
    name: `api-${db}${timed ? '-timed' : ''}`,
    // The reliability suites are test-only code, kept out of src but run against both databases.
    include: timed ? TIMED : ['apps/api/src/**/*.test.ts', `${API_RELIABILITY}/**/*.test.ts`],
    exclude: [...configDefaults.exclude, ...(timed ? [] : TIMED)],
    ...(timed ? { fileParallelism: false, sequence: { groupOrder: db === 'pglite' ? 1 : 2 } } : {}),
    environment: 'node',
    env: { TEST_DB: db },
    ...(db === 'pglite' ? { globalSetup: ['apps/api/src/test/pglite-template.ts'] } : {}),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      apiProject('pglite'),
      apiProject('pglite', true),
      // The same API suite on PostgreSQL whenever a server is configured (CI sets DATABASE_URL).
      ...(process.env.DATABASE_URL ? [apiProject('postgres'), apiProject('postgres', true)] : []),
      // The lint rules themselves, on planted violations.
      { test: { name: 'lint', include: ['eslint-rules/**/*.test.ts'], environment: 'node', testTimeout: 60_000 } },
      {
        // Checks on the built product (npm test builds first).
        test: {
          name: 'build',
          include: ['apps/*/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, `${API_RELIABILITY}/**`],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
