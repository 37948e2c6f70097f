import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import config from '../eslint.config.js';

// CI runs `npm test`, not `npm run lint`: the walls between workspaces, modules and tables hold
// there too. Only the repository's own rules run here (the style rules stay with `npm run lint`).
const ROOT = path.resolve(import.meta.dirname, '..');
const WALLS = ['provee/boundaries', 'provee/no-cycle', 'provee/no-module-cycle', 'provee/schema-owners'];

describe('the repository within its walls', () => {
  it('no import crosses a wall, no loop between files or modules, no table outside its store', async () => {
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: config,
      ruleFilter: ({ ruleId }) => WALLS.includes(ruleId),
    });
    const results = await eslint.lintFiles(['apps/api/src', 'apps/web/src', 'packages/domain/src']);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${path.relative(ROOT, result.filePath)}:${message.line} ${message.message}`),
    );
    expect(results.length).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  }, 180_000);
});
