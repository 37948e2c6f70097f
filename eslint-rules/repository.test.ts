import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import config from '../eslint.config.js';

// CI runs `npm test`, not `npm run lint`: the walls between workspaces, modules and tables hold
// there too. Only the repository's own rules run here (the style rules stay with `npm run lint`).
const ROOT = path.resolve(import.meta.dirname, '..');
const WALLS = [
  'provee/boundaries',
  'provee/no-cycle',
  'provee/no-module-cycle',
  'provee/schema-owners',
  // The domain's dependencies; no AsyncLocalStorage in the API (decision 045).
  'no-restricted-imports',
];

const walls = () =>
  new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: config,
    ruleFilter: ({ ruleId }) => WALLS.includes(ruleId),
  });

describe('the repository within its walls', () => {
  it('no import crosses a wall, no loop between files or modules, no table outside its store', async () => {
    const results = await walls().lintFiles(['apps/api/src', 'apps/web/src', 'packages/domain/src']);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${path.relative(ROOT, result.filePath)}:${message.line} ${message.message}`),
    );
    expect(results.length).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  }, 180_000);

  it('the API imports no async_hooks: its AsyncLocalStorage would cost every request (decision 045)', async () => {
    const text =
      "import { AsyncLocalStorage } from 'node:async_hooks';\nexport const store = new AsyncLocalStorage();\n";
    const [result] = await walls().lintText(text, { filePath: path.join(ROOT, 'apps/api/src/db/context.ts') });
    expect(result!.messages.map((message) => message.ruleId)).toEqual(['no-restricted-imports']);
    const [inTest] = await walls().lintText(text, { filePath: path.join(ROOT, 'apps/api/src/db/context.test.ts') });
    expect(inTest!.messages).toEqual([]);
  });
});
