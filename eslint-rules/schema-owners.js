// Who may touch the tables: in apps/api/src only stores (`*.store.ts`), `db/` itself and the step
// engine (`modules/application`) import `db/schema` — type-only imports too, since a row type is
// the table's shape leaking out. Everyone else asks a store, or another module's index.ts.
// Test files and `test/` folders set up data as they need.
import path from 'node:path';
import { importVisitors, isRelative, problemRule, resolveSpecifier } from './import-rule.js';

const posix = (file) => file.split(path.sep).join('/');

function mayImportSchema(file) {
  const p = posix(file);
  const match = p.match(/\/apps\/api\/src\/(.*)$/);
  if (!match) return true;
  const inside = match[1];
  return (
    /\.store\.ts$/.test(inside) ||
    inside.startsWith('db/') ||
    inside.startsWith('modules/application/') ||
    inside.startsWith('test/') ||
    /\.test\.ts$/.test(inside)
  );
}

const isSchema = (file) => /\/apps\/api\/src\/db\/schema(\.js|\.ts)?$/.test(posix(file));

export const schemaOwners = problemRule({
  description: 'Only stores, db/ and the step engine import db/schema.',
  messages: {
    schema:
      "Only a store (*.store.ts), db/ or modules/application imports db/schema: move this query into the module's store.",
  },
  create(context) {
    if (mayImportSchema(context.filename)) return {};
    const check = (source) => {
      if (isRelative(source.value) && isSchema(resolveSpecifier(context.filename, source.value)))
        context.report({ node: source, messageId: 'schema' });
    };
    return importVisitors(check, { dynamic: true });
  },
});
