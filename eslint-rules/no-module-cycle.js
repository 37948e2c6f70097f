// No import loop between the rooms of an app: an API module (`modules/users`), a provider, a web
// feature or shared folder, a top-level folder (`db`) or file (`types.ts`). `no-cycle` sees loops
// between files; two modules can still lean on each other through different files
// (phone-proof/a → users/b → phone-proof/c), which makes both one unit in disguise.
// Every static import and re-export counts, `import type` too: a type that runs back up ties the
// rooms as much as a value does. Test files (and the `test/` folders) are not part of the graph.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { importVisitors, isRelative, problemRule, resolveSpecifier } from './import-rule.js';

const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
/** Folders whose children are rooms of their own (`modules/users`, `features/credit`). */
const GROUPS = new Set(['modules', 'providers', 'plugins', 'features', 'shared']);
const SOURCE = /\.(ts|tsx|js|mjs)$/;

const isTest = (file) => /\.test\.(ts|tsx)$/.test(file) || /\/test\//.test(file.split(path.sep).join('/'));

/** The app's `src` folder a file is in, or null. */
function srcRoot(file) {
  const p = file.split(path.sep).join('/');
  const match = p.match(/^(.*\/apps\/[^/]+\/src)\//);
  return match ? match[1] : null;
}

/** 'modules/users' for src/modules/users/x.ts, 'db' for src/db/client.ts, 'types' for src/types.ts. */
function roomOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length === 1) return parts[0].replace(SOURCE, '');
  if (GROUPS.has(parts[0]) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  if (GROUPS.has(parts[0])) return `${parts[0]}/${parts[1].replace(SOURCE, '')}`;
  return parts[0];
}

function listFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .filter((file) => !isTest(file));
}

/** The files of a room: a folder's source files, or the one top-level file. */
function filesOf(root, room) {
  const dir = path.join(root, room);
  try {
    if (statSync(dir).isDirectory()) return listFiles(dir);
  } catch {
    // not a folder: a top-level file
  }
  return ['.ts', '.tsx', '.js', '.mjs']
    .map((ext) => `${dir}${ext}`)
    .filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

const importsCache = new Map();

/** The relative import specifiers of a file, kept while the file is unchanged. */
function importsOf(file) {
  let stamp;
  try {
    const stat = statSync(file);
    stamp = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return [];
  }
  const cached = importsCache.get(file);
  if (cached && cached.stamp === stamp) return cached.specifiers;
  const specifiers = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1]);
  importsCache.set(file, { stamp, specifiers });
  return specifiers;
}

/** The rooms a room imports, each with one file → file import that shows it. */
function roomEdges(root, room) {
  const edges = new Map();
  for (const file of filesOf(root, room)) {
    for (const specifier of importsOf(file)) {
      const target = resolveSpecifier(file, specifier);
      if (!target.startsWith(root + path.sep) || isTest(target)) continue;
      const to = roomOf(root, target);
      if (to !== room && !edges.has(to)) edges.set(to, `${path.relative(root, file)} → ${specifier}`);
    }
  }
  return edges;
}

/** A trail of rooms from `start` to `goal` (each step with the import that makes it), or null. */
function trailBetween(root, start, goal) {
  const seen = new Set([start]);
  const queue = [[start, []]];
  while (queue.length > 0) {
    const [room, trail] = queue.shift();
    for (const [next, via] of roomEdges(root, room)) {
      const step = [...trail, `${next} (${via})`];
      if (next === goal) return step;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([next, step]);
      }
    }
  }
  return null;
}

export const noModuleCycle = problemRule({
  description: 'No import loop between the modules (rooms) of an app.',
  messages: {
    cycle: "'{{from}}' imports '{{to}}', and '{{to}}' leads back: {{trail}}. Move the shared piece down.",
  },
  create(context) {
    const self = context.filename;
    const root = srcRoot(self);
    if (!root || isTest(self)) return {};
    const from = roomOf(root, self);
    const check = (source) => {
      if (!isRelative(source.value)) return;
      const target = resolveSpecifier(self, source.value);
      if (!target.startsWith(root + path.sep) || isTest(target)) return;
      const to = roomOf(root, target);
      if (to === from) return;
      const trail = trailBetween(root, to, from);
      if (trail) context.report({ node: source, messageId: 'cycle', data: { from, to, trail: trail.join(' → ') } });
    };
    return importVisitors(check);
  },
});
