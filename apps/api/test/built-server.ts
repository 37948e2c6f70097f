import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, it } from 'vitest';
import { API_ROOT } from '../src/paths.js';

/** The built server (npm run build) that the checks of this folder start, kill and start again. */
export const SERVER_JS = join(API_ROOT, 'dist/server.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the built server with this environment (and PATH) and waits for its /api/health. */
export async function startBuiltServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_JS], {
    env: { PATH: process.env.PATH, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

/** Sends the signal (SIGKILL: no warning, nothing finishes) and waits for the process to be gone. */
export async function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/**
 * One check on each database: the embedded one in a throw-away data dir, and, when DATABASE_URL
 * names a PostgreSQL server (CI sets it), a database of its own there. `run` gets the environment
 * that points the server at it.
 */
export function onEachDatabase(name: string, run: (env: Record<string, string>) => Promise<void>, timeout = 120_000) {
  it(
    `on PGlite: ${name}`,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'provee-built-'));
      try {
        await run({ DATA_DIR: dataDir });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    timeout,
  );

  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  afterAll(() => admin.end());
  it(
    `on PostgreSQL: ${name}`,
    async () => {
      const database = `provee_built_${Date.now()}_${randomBytes(3).toString('hex')}`;
      await admin.unsafe(`create database "${database}"`);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      try {
        await run({ DATABASE_URL: url.toString() });
      } finally {
        await admin.unsafe(`drop database if exists "${database}" with (force)`);
      }
    },
    timeout,
  );
}
