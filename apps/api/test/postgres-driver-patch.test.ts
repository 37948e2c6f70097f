import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_PATCH_MARKER, patchPostgresConnection } from '../scripts/postgres-patch.mjs';
import { API_ROOT } from '../src/paths.js';

/**
 * Issue 13, suite 6 found it: with PostgreSQL stopped under load, a server process died of an
 * uncaught TypeError inside postgres.js (`socket.write` on a closed connection, from a transaction's
 * next statement). The build bundles postgres.js with the fix (scripts/postgres-patch.mjs).
 */
const POSTGRES_DIR = join(API_ROOT, '../../node_modules/postgres');
const CONNECTION_JS = join(POSTGRES_DIR, 'src/connection.js');

/** A connection held by a transaction, its backend ended by the server, then its next statement. */
const SCENARIO = `
const { default: postgres } = await import(process.argv[1]);
const url = process.argv[2];
const sql = postgres(url, { max: 2, onnotice: () => {} });
const admin = postgres(url, { max: 1, onnotice: () => {} });
const reserved = await sql.reserve();
const [{ pid }] = await reserved\`select pg_backend_pid() as pid\`;
await admin\`select pg_terminate_backend(\${pid})\`;
await new Promise((resolve) => setTimeout(resolve, 200));
const late = await reserved\`select 1 as x\`.then(() => 'answered', (error) => error.code);
const next = await sql\`select 2 as x\`.then((rows) => rows[0].x, (error) => error.code);
await sql.end({ timeout: 1 });
await admin.end();
console.log(JSON.stringify({ late, next }));
`;

function runScenario(moduleFile: string, databaseUrl: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', SCENARIO, moduleFile, databaseUrl],
      { timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('postgres.js with the fix for a connection the server closed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'provee-postgres-patch-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies to the installed postgres.js, and the built server carries it', () => {
    const patched = patchPostgresConnection(readFileSync(CONNECTION_JS, 'utf8'));
    expect(patched).toContain(POSTGRES_PATCH_MARKER);
    expect(patched.match(/chunk = nextWriteTimer = null \/\/ provee patch/g)).toHaveLength(2);
    // esbuild drops comments: the guard itself is what shows in the bundle.
    expect(readFileSync(join(API_ROOT, 'dist/server.js'), 'utf8')).toContain(
      'if (socket === null) {\n      nextWriteTimer !== null && clearImmediate(nextWriteTimer);',
    );
  });

  it('refuses a source it does not know (an upgrade must be looked at)', () => {
    expect(() => patchPostgresConnection('function nextWrite(fn) {}')).toThrow(/postgres\.js changed/);
  });

  it.runIf(process.env.DATABASE_URL)(
    'a statement on a connection the server ended fails with CONNECTION_CLOSED instead of killing the process',
    async () => {
      const url = process.env.DATABASE_URL!;
      // As installed: the process dies (when this stops failing, upstream fixed it: drop the patch).
      const unpatched = await runScenario(join(POSTGRES_DIR, 'src/index.js'), url);
      expect(unpatched.code).not.toBe(0);
      expect(unpatched.stderr).toContain("Cannot read properties of null (reading 'write')");

      const copy = join(dir, 'postgres');
      cpSync(POSTGRES_DIR, copy, { recursive: true });
      const file = join(copy, 'src/connection.js');
      writeFileSync(file, patchPostgresConnection(readFileSync(file, 'utf8')));
      const patched = await runScenario(join(copy, 'src/index.js'), url);
      expect(patched.stderr).toBe('');
      expect(patched.code).toBe(0);
      expect(JSON.parse(patched.stdout)).toEqual({ late: 'CONNECTION_CLOSED', next: 2 });
    },
    60_000,
  );
});
