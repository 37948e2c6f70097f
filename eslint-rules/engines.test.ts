import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The machines run Node 20 (README): every package the lock file installs must accept the oldest
// Node the root's `engines` allows. npm only warns (EBADENGINE) when one does not, and a package that
// has dropped Node 20 may work on it today and break on its next patch (decision 046).
const ROOT = path.resolve(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

/** Each locked package whose `engines.node` does not accept `node`, as `name@version (range)`. */
function refusing(packages: Record<string, LockedPackage>, node: string): string[] {
  return Object.entries(packages).flatMap(([where, locked]) => {
    const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
    if (!where || !range || semver.satisfies(node, range, { includePrerelease: true })) return [];
    return [`${where.replace(/^.*node_modules\//, '')}@${locked.version} (node ${range})`];
  });
}

describe('the lock file', () => {
  const oldestNode = semver.minVersion(readJson('package.json').engines.node)!.version;

  it('installs only packages whose engines accept the oldest Node the root allows', () => {
    expect(oldestNode).toMatch(/^20\./);
    expect(refusing(readJson('package-lock.json').packages, oldestNode)).toEqual([]);
  });

  it('names a package that has left that Node behind', () => {
    const packages = {
      '': { version: '0.0.0' },
      'node_modules/cookie': { version: '1.1.1', engines: { node: '>=18' } },
      'node_modules/@fastify/static/node_modules/content-disposition': { version: '3.0.0', engines: { node: '>=22' } },
      'node_modules/old': { version: '1.0.0', engines: ['node >= 0.4'] },
    };
    expect(refusing(packages, oldestNode)).toEqual(['content-disposition@3.0.0 (node >=22)']);
  });
});
