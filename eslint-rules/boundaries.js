// Import boundaries of docs/CONVENTIONS.md, checked on the resolved path of every relative import:
// - a web feature never imports another feature or app/; shared never imports features or app;
// - an API module reaches another module only through its index.ts;
// - a provider never imports a module;
// and between the workspaces (relative paths and package names alike): packages/** never imports
// apps/**, apps/web never imports apps/api (the contract lives in packages/domain).
import path from 'node:path';
import { importVisitors, isRelative, problemRule, resolveSpecifier } from './import-rule.js';
import { noCycle } from './no-cycle.js';
import { noModuleCycle } from './no-module-cycle.js';
import { schemaOwners } from './schema-owners.js';

function zone(file) {
  const p = file.split(path.sep).join('/');
  let m = p.match(/\/apps\/web\/src\/features\/([^/]+)(?:\/|$)/);
  if (m) return { kind: 'feature', name: m[1] };
  if (/\/apps\/web\/src\/shared(?:\/|$)/.test(p)) return { kind: 'shared' };
  if (/\/apps\/web\/src\/app(?:\/|$)/.test(p)) return { kind: 'app' };
  m = p.match(/\/apps\/api\/src\/modules\/([^/]+)(?:\/(.*))?$/);
  if (m) return { kind: 'module', name: m[1], rest: m[2] ?? '' };
  if (/\/apps\/api\/src\/providers(?:\/|$)/.test(p)) return { kind: 'provider' };
  return { kind: 'other' };
}

/** Which workspace a path is in: the domain package, the web app or the API. */
function side(file) {
  const p = file.split(path.sep).join('/');
  if (/\/packages\//.test(p)) return 'package';
  if (/\/apps\/web\//.test(p)) return 'web';
  if (/\/apps\/api\//.test(p)) return 'api';
  return null;
}

/** The workspace a package name names ('@provee/api/…' → 'api'), or null. */
const sideOfPackage = (name) =>
  ({ '@provee/api': 'api', '@provee/web': 'web' })[name.split('/').slice(0, 2).join('/')] ?? null;

function wall(from, to) {
  if (from === 'package' && (to === 'web' || to === 'api')) return { messageId: 'package', data: { to } };
  if (from === 'web' && to === 'api') return { messageId: 'webApi' };
  return undefined;
}

const ENTRY = new Set(['', 'index', 'index.js', 'index.ts']);

function problem(from, to, target) {
  if (from.kind === 'feature' && to.kind === 'feature' && from.name !== to.name)
    return { messageId: 'feature', data: { from: from.name, to: to.name } };
  if (from.kind === 'feature' && to.kind === 'app')
    return { messageId: 'featureApp', data: { from: from.name, to: target } };
  if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'app'))
    return { messageId: 'shared', data: { to: target } };
  if (from.kind === 'module' && to.kind === 'module' && from.name !== to.name && !ENTRY.has(to.rest)) {
    return { messageId: 'module', data: { to: to.name } };
  }
  if (from.kind === 'provider' && to.kind === 'module') return { messageId: 'provider', data: { to: to.name } };
  return undefined;
}

export const boundaries = problemRule({
  description: 'Imports point one way between web features, API modules and providers.',
  messages: {
    feature:
      "Feature '{{from}}' imports feature '{{to}}': compose features in app/ (router), not inside another feature.",
    shared: "shared/ imports '{{to}}': shared never depends on features or app.",
    module: "Import module '{{to}}' through its index.ts, not its internals.",
    provider: "A provider imports module '{{to}}': providers never depend on modules.",
    featureApp:
      "Feature '{{from}}' imports '{{to}}' of app/: app/ composes the features, a feature never reaches back.",
    package: 'packages/ imports apps/{{to}}: the shared packages never depend on an app.',
    webApi: 'apps/web imports apps/api: the web app reaches the API through HTTP and packages/domain only.',
  },
  create(context) {
    const from = zone(context.filename);
    const fromSide = side(context.filename);
    const check = (source) => {
      if (!isRelative(source.value)) {
        const found = fromSide && wall(fromSide, sideOfPackage(source.value));
        if (found) context.report({ node: source, ...found });
        return;
      }
      const target = resolveSpecifier(context.filename, source.value);
      const found =
        (fromSide && wall(fromSide, side(target))) ||
        (from.kind === 'other' || from.kind === 'app' ? undefined : problem(from, zone(target), source.value));
      if (found) context.report({ node: source, ...found });
    };
    return importVisitors(check, { dynamic: true });
  },
});

export default {
  rules: { boundaries, 'no-cycle': noCycle, 'no-module-cycle': noModuleCycle, 'schema-owners': schemaOwners },
};
