import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'data/**', 'apps/api/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only config.ts reads the environment (CONVENTIONS: one way to do each thing).
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through apps/api/src/config.ts.' }],
    },
  },
  {
    files: ['apps/api/src/config.ts', 'apps/api/src/server.ts', 'apps/api/src/catalog-import.ts', '**/*.test.ts', '**/test/**', 'e2e/**', 'scripts/**', '*.config.ts', 'apps/*/*.config.ts', 'apps/*/scripts/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A feature never imports another feature; shared never imports features or app.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/features/*/**'], message: 'Compose features in app/ (router), not inside another feature.' }] },
      ],
    },
  },
  {
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react', 'react-*', 'drizzle-orm*', 'fastify*', '@electric-sql/*', 'postgres'], message: 'The domain package depends on zod only.' }] },
      ],
    },
  },
);
