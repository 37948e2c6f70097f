import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import provee from './eslint-rules/boundaries.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'data/**', 'apps/api/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only config.ts reads the environment (docs/CONVENTIONS.md: one way to do each thing).
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through apps/api/src/config.ts.' },
      ],
    },
  },
  {
    // Import boundaries (eslint-rules/boundaries.js) and no import cycles anywhere in apps and packages.
    files: ['apps/**/*.{ts,tsx,js,mjs}', 'packages/**/*.{ts,tsx,js,mjs}'],
    plugins: { provee },
    rules: {
      'provee/boundaries': 'error',
      'provee/no-cycle': 'error',
      'provee/no-module-cycle': 'error',
      'provee/schema-owners': 'error',
    },
  },
  {
    files: [
      'apps/api/src/config.ts',
      'apps/api/src/server.ts',
      'apps/api/src/catalog-import.ts',
      'apps/api/src/staff-create.ts',
      '**/*.test.ts',
      '**/test/**',
      'e2e/**',
      'scripts/**',
      '*.config.ts',
      'apps/*/*.config.ts',
      'apps/*/scripts/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:async_hooks', 'async_hooks'].map((name) => ({
            name,
            message:
              'AsyncLocalStorage turns on promise hooks that cost every request 10–30 µs (decision 045): pass what a call needs.',
          })),
        },
      ],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-*', 'drizzle-orm*', 'fastify*', '@electric-sql/*', 'postgres'],
              message: 'The domain package depends on zod only.',
            },
          ],
        },
      ],
    },
  },
);
