import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../eslint.config.js';

// The repository's own lint configuration, run on planted files in a throw-away copy of the layout.
let root: string;
let eslint: ESLint;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'provee-lint-'));
  eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function plant(files: Record<string, string>): string[] {
  return Object.entries(files).map(([file, text]) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  });
}

/** Rule ids reported for the planted files, e.g. ['provee/boundaries']. */
async function reported(files: Record<string, string>): Promise<string[]> {
  const results = await eslint.lintFiles(plant(files));
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message)).sort();
}

describe('lint boundaries', () => {
  it('(a) a web feature may not import another feature, even by a relative path', async () => {
    expect(
      await reported({
        'apps/web/src/features/registration/api/save.ts': 'export const save = 1;\n',
        'apps/web/src/features/credit/routes/nip.tsx':
          "import { save } from '../../registration/api/save.js';\nexport const x = save;\n",
      }),
    ).toEqual(['provee/boundaries']);
    expect(
      await reported({
        'apps/web/src/features/credit/api/nip.ts': 'export const nip = 1;\n',
        'apps/web/src/shared/ui/button.tsx': 'export const button = 1;\n',
        'apps/web/src/features/credit/routes/pin.tsx':
          "import { nip } from '../api/nip.js';\nimport { button } from '../../../shared/ui/button.js';\nexport const x = [nip, button];\n",
      }),
    ).toEqual([]);
  });

  it('(a) shared may not import features or app', async () => {
    expect(
      await reported({
        'apps/web/src/app/router.tsx': 'export const router = 1;\n',
        'apps/web/src/features/credit/api/nip.ts': 'export const nip = 1;\n',
        'apps/web/src/shared/lib/uses.ts':
          "import { router } from '../../app/router.js';\nimport { nip } from '../../features/credit/api/nip.js';\nexport const x = [router, nip];\n",
      }),
    ).toEqual(['provee/boundaries', 'provee/boundaries']);
  });

  it('(a) a feature may not import app/ (app/ composes the features)', async () => {
    expect(
      await reported({
        'apps/web/src/app/router.tsx': 'export const router = 1;\n',
        'apps/web/src/features/credit/routes/back.tsx':
          "import { router } from '../../../app/router.js';\nexport const x = router;\n",
      }),
    ).toEqual(['provee/boundaries']);
  });

  it('(e) packages never import an app; the web app never imports the API (paths and package names)', async () => {
    plant({
      'apps/api/src/modules/users/index.ts': 'export const findUserById = 1;\n',
      'apps/web/src/shared/lib/format.ts': 'export const format = 1;\n',
      'packages/domain/src/contract/own.ts': 'export const own = 1;\n',
    });
    expect(
      await reported({
        'packages/domain/src/uses-api.ts':
          "import { findUserById } from '../../../apps/api/src/modules/users/index.js';\nexport const x = findUserById;\n",
        'packages/domain/src/uses-web.ts':
          "import { format } from '../../../apps/web/src/shared/lib/format.js';\nexport const x = format;\n",
        'packages/domain/src/uses-api-name.ts':
          "import { buildApp } from '@provee/api/app';\nexport const x = buildApp;\n",
        'apps/web/src/shared/lib/uses-api.ts':
          "import { findUserById } from '../../../../api/src/modules/users/index.js';\nexport const x = findUserById;\n",
        'apps/web/src/main-uses-api.ts': "import { buildApp } from '@provee/api';\nexport const x = buildApp;\n",
      }),
    ).toEqual(Array.from({ length: 5 }, () => 'provee/boundaries'));
    expect(
      await reported({
        'apps/web/src/shared/lib/uses-domain.ts':
          "import { own } from '../../../../../packages/domain/src/contract/own.js';\nexport const x = own;\n",
        'apps/api/src/modules/users/uses-domain.ts':
          "import { own } from '../../../../../packages/domain/src/contract/own.js';\nexport const x = own;\n",
      }),
    ).toEqual([]);
  });

  it('(b) an API module reaches another module only through its index.ts', async () => {
    plant({
      'apps/api/src/modules/users/users.service.ts': 'export const findUserById = 1;\n',
      'apps/api/src/modules/users/index.ts': "export { findUserById } from './users.service.js';\n",
      'apps/api/src/errors.ts': 'export const AppError = 1;\n',
    });
    expect(
      await reported({
        'apps/api/src/modules/credit/inside.ts':
          "import { findUserById } from '../users/users.service.js';\nexport const x = findUserById;\n",
      }),
    ).toEqual(['provee/boundaries']);
    expect(
      await reported({
        'apps/api/src/modules/credit/helper.ts': 'export const helper = 1;\n',
        'apps/api/src/modules/credit/outside.ts':
          "import { findUserById } from '../users/index.js';\nimport { helper } from './helper.js';\nimport { AppError } from '../../errors.js';\nexport const x = [findUserById, helper, AppError];\n",
      }),
    ).toEqual([]);
  });

  it('(c) a provider may not import a module, not even its index.ts', async () => {
    plant({
      'apps/api/src/modules/sms/index.ts': 'export const sendSms = 1;\n',
      'apps/api/src/config.ts': 'export const loadConfig = 1;\n',
    });
    expect(
      await reported({
        'apps/api/src/providers/sms/outbox.ts':
          "import { sendSms } from '../../modules/sms/index.js';\nexport const x = sendSms;\n",
      }),
    ).toEqual(['provee/boundaries']);
    expect(
      await reported({
        'apps/api/src/providers/sms/twilio.ts':
          "import { loadConfig } from '../../config.js';\nexport const x = loadConfig;\n",
      }),
    ).toEqual([]);
  });

  it('(d) an import cycle fails, in the API (.js specifiers of .ts files) and in packages', async () => {
    expect(
      await reported({
        'apps/api/src/modules/credit/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'apps/api/src/modules/credit/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      }),
    ).toEqual(['provee/no-cycle', 'provee/no-cycle']);
    expect(
      await reported({
        'packages/domain/src/one.ts': "import { three } from './three.js';\nexport const one = () => three;\n",
        'packages/domain/src/two.ts': "import { one } from './one.js';\nexport const two = () => one;\n",
        'packages/domain/src/three.ts': "import { two } from './two.js';\nexport const three = () => two;\n",
      }),
    ).toEqual(['provee/no-cycle', 'provee/no-cycle', 'provee/no-cycle']);
    expect(
      await reported({
        'apps/web/src/features/credit/api/c.ts': "import { d } from './d.js';\nexport const c = () => d;\n",
        'apps/web/src/features/credit/api/d.ts': 'export const d = 1;\n',
      }),
    ).toEqual([]);
  });

  it('(f) a loop between two API modules fails, through different files and through a type import', async () => {
    expect(
      await reported({
        'apps/api/src/modules/alpha/index.ts': "export { a } from './a.js';\n",
        'apps/api/src/modules/alpha/a.ts': "import { b } from '../beta/index.js';\nexport const a = () => b;\n",
        'apps/api/src/modules/beta/index.ts': "export { b } from './b.js';\n",
        'apps/api/src/modules/beta/b.ts':
          "import type { a } from '../alpha/index.js';\nexport const b = (x: typeof a) => x;\n",
      }),
    ).toEqual(['provee/no-module-cycle', 'provee/no-module-cycle']);
    // A top-level file that reaches up into a module that uses it (the old types.ts).
    expect(
      await reported({
        'apps/api/src/shapes.ts':
          "import type { Policy } from './modules/gamma/index.js';\nexport type App = Policy;\n",
        'apps/api/src/modules/gamma/index.ts':
          "import type { App } from '../../shapes.js';\nexport type Policy = { app?: App };\n",
      }),
    ).toEqual(['provee/no-module-cycle', 'provee/no-module-cycle']);
    expect(
      await reported({
        'apps/api/src/modules/omega/index.ts': "export { o } from './o.js';\n",
        'apps/api/src/modules/omega/o.ts': "import { z } from '../zeta/index.js';\nexport const o = () => z;\n",
        'apps/api/src/modules/zeta/index.ts':
          "import { AppError } from '../../errors.js';\nexport const z = AppError;\n",
      }),
    ).toEqual([]);
  });

  it('(g) only stores, db/ and the step engine import db/schema (type imports too)', async () => {
    plant({ 'apps/api/src/db/schema.ts': 'export const users = 1;\nexport type Row = { id: string };\n' });
    expect(
      await reported({
        'apps/api/src/modules/delta/delta.service.ts':
          "import { users } from '../../db/schema.js';\nexport const x = users;\n",
        'apps/api/src/modules/delta/delta.routes.ts':
          "import type { Row } from '../../db/schema.js';\nexport type X = Row;\n",
        'apps/api/src/providers/places/catalog.ts':
          "import { users } from '../../db/schema.js';\nexport const x = users;\n",
      }),
    ).toEqual(['provee/schema-owners', 'provee/schema-owners', 'provee/schema-owners']);
    expect(
      await reported({
        'apps/api/src/modules/delta/delta.store.ts':
          "import { users } from '../../db/schema.js';\nexport const x = users;\n",
        'apps/api/src/modules/application/engine.ts':
          "import { users } from '../../db/schema.js';\nexport const x = users;\n",
        'apps/api/src/db/client.ts': "import { users } from './schema.js';\nexport const x = users;\n",
        'apps/api/src/modules/delta/delta.test.ts':
          "import { users } from '../../db/schema.js';\nexport const x = users;\n",
      }),
    ).toEqual([]);
  });
});
