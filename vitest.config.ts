import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** Test-only suites that need the API's test database (so not the `build` project). */
const API_RELIABILITY = 'apps/api/test/reliability';

const apiProject = (db: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  test: {
    name: `api-${db}`,
    // The reliability suites are test-only code, kept out of src but run against both databases.
    include: ['apps/api/src/**/*.test.ts', `${API_RELIABILITY}/**/*.test.ts`],
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
      // The same API suite on PostgreSQL whenever a server is configured (CI sets DATABASE_URL).
      ...(process.env.DATABASE_URL ? [apiProject('postgres')] : []),
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
