// No import cycles between the repository's own files. A small rule of our own: the usual plugin
// (eslint-plugin-import-x) needs native resolver bindings for every platform in package-lock.json,
// which this registry does not serve, and that breaks `npm ci`.
// It follows static relative imports and re-exports (not `import type`, not dynamic `import()`,
// which load lazily) from the file being linted, reading the other files from disk.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { importVisitors, isRelative, problemRule, resolveSpecifier } from './import-rule.js';

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

/** './x.js' from a .ts file means './x.ts' (TypeScript's ESM specifiers); folders mean their index. */
function resolve(fromFile, specifier) {
  const base = resolveSpecifier(fromFile, specifier);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.js`,
    `${stem}.mjs`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
    path.join(base, 'index.js'),
  ];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

const edgesCache = new Map();

function edges(file) {
  let found = edgesCache.get(file);
  if (!found) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // unreadable: no edges
    }
    found = [...text.matchAll(STATIC_IMPORT)].map((match) => resolve(file, match[1])).filter(Boolean);
    edgesCache.set(file, found);
  }
  return found;
}

/** A path of files from `start` back to `target`, or null. */
function pathBack(start, target) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [file, trail] = stack.pop();
    if (file === target) return trail;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of edges(file)) stack.push([next, [...trail, next]]);
  }
  return null;
}

export const noCycle = problemRule({
  description: 'No import cycles between files of the repository.',
  messages: { cycle: 'Import cycle: {{trail}}.' },
  create(context) {
    const self = context.filename;
    // Another lint run (or a test) may have changed files on disk since the last one.
    edgesCache.clear();
    const check = (source, node) => {
      if (!isRelative(source.value) || node.importKind === 'type' || node.exportKind === 'type') return;
      const target = resolve(self, source.value);
      const trail = target && pathBack(target, self);
      if (trail)
        context.report({
          node: source,
          messageId: 'cycle',
          data: { trail: [self, ...trail].map((file) => path.relative(context.cwd, file)).join(' → ') },
        });
    };
    return importVisitors(check);
  },
});
