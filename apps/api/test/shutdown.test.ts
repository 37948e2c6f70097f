import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { copyInitialDatabase } from '../src/db/initial-database.js';
import { prepareDatabase } from '../src/prepare-database.js';
import { API_ROOT } from '../src/paths.js';
import { createApplication, createPng, userAuth } from '../src/test/factories.js';
import { bigFlatPng } from '../src/test/image-variants.js';
import { multipart } from '../src/test/multipart.js';
import { signerWithLink, verifiedSigner, widgetPhotos } from '../src/test/signer.js';
import { HAND_DRIVEN_JOB_KINDS } from '../src/test/test-app.js';

/**
 * Issue 26: SIGTERM always ends the BUILT server within SHUTDOWN_TIMEOUT_MS — gracefully (the
 * requests in flight answered, then exit 0) or, when something never ends (a client that stops
 * sending its upload), at the deadline with exit 1 — while images are decoded and PDFs built.
 */
const serverJs = join(API_ROOT, 'dist/server.js');
const APP_SECRET = 'shutdown-test-secret-shutdown-test-secret';
const SHUTDOWN_TIMEOUT_MS = 6_000;
const SERVER_ENV = {
  APP_SECRET,
  NIP_PREFILL: 'true',
  IDENTITY_SIMULATOR_DELAY_MS: '0',
  IDENTITY_MAX_ATTEMPTS: '20',
  RATE_LIMIT_PER_MINUTE: '100000',
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  url: string;
  port: number;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverJs], {
    env: {
      PATH: process.env.PATH,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url, port, output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output.join('')}`);
}

/** SIGTERM, then how long until the process was gone, and how it ended. */
async function terminate(server: Running) {
  const started = performance.now();
  server.child.kill('SIGTERM');
  const ended = await Promise.race([
    server.exited,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), SHUTDOWN_TIMEOUT_MS + 5_000)),
  ]);
  if (!ended) server.child.kill('SIGKILL');
  return { ended, ms: performance.now() - started };
}

type Signer = { userId: string; token: string };

/** Heavy requests over HTTP: 2000 × 2000 signatures (PDF builds) and uploads with a 36 MP photo. */
function heavyWork(url: string, signers: Signer[], uploaders: Signer[]) {
  const signature = Buffer.from(createPng({ width: 2000, height: 2000 })).toString('base64');
  const send = (path: string, init: RequestInit) =>
    fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) }).then(
      (res) => res.status,
      (error: unknown) => `failed: ${String(error)}`,
    );
  return Promise.all([
    ...signers.map((signer) =>
      send(`/api/v1/users/SK/${signer.userId}/contract`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${signer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ person_type: 'titular', signature, metadata: '' }),
      }),
    ),
    ...uploaders.map((signer, i) => {
      const form = multipart(
        { ...widgetPhotos(i), selfie: bigFlatPng(6000, 6000) },
        { person_type: 'titular', verification_type: 'VERIFICATION' },
      );
      return send(`/api/v1/users/SK/${signer.userId}/identity-documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${signer.token}`, ...form.headers },
        body: form.payload,
      });
    }),
  ]);
}

/** An upload whose client sends the headers and half the body, then nothing: it never ends by itself. */
function stalledUpload(port: number, signer: Signer) {
  const form = multipart(widgetPhotos(), { person_type: 'titular' });
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    [
      `POST /api/v1/users/SK/${signer.userId}/identity-documents HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${signer.token}`,
      `Content-Type: ${form.headers['content-type']}`,
      `Content-Length: ${form.payload.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(form.payload.subarray(0, form.payload.length >> 1));
  return socket;
}

describe('SIGTERM on the built server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-shutdown-'));
  const signers: Signer[] = [];
  const uploaders: Signer[] = [];
  /** A shopkeeper with a PIN sent, whose consent (PUT …/nip) waits for the bureau's answer. */
  let consenting: { userId: string; headers: Record<string, string>; nip: string };

  // The signers are made before the server starts, with the app's own code on the same data dir
  // (PGlite is one process at a time), through the real journey.
  beforeAll(async () => {
    expect(existsSync(serverJs), 'run npm run build first').toBe(true);
    copyInitialDatabase(dataDir);
    const database = openDatabase({ dataDir });
    await prepareDatabase(database);
    const app = await buildApp(
      loadConfig({
        ...SERVER_ENV,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: '/nonexistent',
        BUREAU_LATENCY_MS: '0',
        JOB_KINDS_OFF: HAND_DRIVEN_JOB_KINDS,
      }),
      database,
    );
    await app.ready();
    try {
      for (let i = 0; i < 5; i++) signers.push(await verifiedSigner(app));
      for (let i = 0; i < 3; i++) uploaders.push(await signerWithLink(app));
      const user = await createApplication(app);
      const headers = userAuth(app, user);
      const sent = await app.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers });
      consenting = { userId: user.id, headers, nip: sent.json().data.default_nip };
    } finally {
      await app.close();
      await database.close();
    }
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('idle: a graceful stop, exit 0, at once', async () => {
    const server = await startServer(dataDir);
    const { ended, ms } = await terminate(server);
    console.log(`idle server stopped in ${ms.toFixed(0)} ms`);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(2_000);
  }, 30_000);

  it('the cut PNG of issue 26 answers 400 within a second; health answers meanwhile; SIGTERM still ends it', async () => {
    const server = await startServer(dataDir);
    const signer = signers[4]!;
    const cut = Buffer.from(createPng({ width: 280, height: 120 })).subarray(0, 60);
    const started = performance.now();
    const signing = fetch(`${server.url}/api/v1/users/SK/${signer.userId}/contract`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${signer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ person_type: 'titular', signature: cut.toString('base64'), metadata: '' }),
      signal: AbortSignal.timeout(10_000),
    });
    const health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(10_000) });
    const healthMs = performance.now() - started;
    const res = await signing;
    const answerMs = performance.now() - started;
    const { ended, ms } = await terminate(server);
    console.log(
      `built server: cut PNG answered ${res.status} in ${answerMs.toFixed(0)} ms, health ${health.status} in ` +
        `${healthMs.toFixed(0)} ms; stopped in ${ms.toFixed(0)} ms`,
    );
    expect(res.status).toBe(400);
    expect(answerMs).toBeLessThan(1_000);
    expect(health.status).toBe(200);
    expect(ended).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('a slow request in flight (the bureau takes 2 s) finishes with its answer, then exit 0 within the deadline', async () => {
    const server = await startServer(dataDir, { BUREAU_LATENCY_MS: '2000', BUREAU_SYNC_WAIT_MS: '5000' });
    const started = performance.now();
    const consent = fetch(`${server.url}/api/v1/users/${consenting.userId}/SK/nip`, {
      method: 'PUT',
      headers: { ...consenting.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ nip: consenting.nip }),
      signal: AbortSignal.timeout(15_000),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { ended, ms } = await terminate(server);
    const res = await consent;
    const answeredMs = performance.now() - started;
    console.log(`slow consent answered ${res.status} in ${answeredMs.toFixed(0)} ms; stopped in ${ms.toFixed(0)} ms`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { next_step: string } }).data.next_step).toBe('PASSWORD');
    expect(answeredMs).toBeGreaterThanOrEqual(2_000);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
  }, 30_000);

  it('heavy work in flight: the requests are answered, then exit 0 within the deadline', async () => {
    const server = await startServer(dataDir);
    const work = heavyWork(server.url, signers.slice(0, 2), uploaders.slice(0, 1));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const { ended, ms } = await terminate(server);
    const statuses = await work;
    console.log(`stopped with heavy work in flight in ${ms.toFixed(0)} ms; answers ${statuses.join(', ')}`);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    // In flight when the signal came: answered (200), or refused as the server closes (503), never a 500.
    for (const status of statuses) expect([200, 503]).toContain(status);
  }, 60_000);

  it('a request that never ends holds the graceful stop: at the deadline the process exits 1 anyway', async () => {
    const server = await startServer(dataDir);
    const stalled = stalledUpload(server.port, uploaders[1]!);
    const work = heavyWork(server.url, signers.slice(2, 4), uploaders.slice(2, 3));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const { ended, ms } = await terminate(server);
    stalled.destroy();
    const statuses = await work;
    console.log(`stopped with a stalled upload in ${ms.toFixed(0)} ms (deadline ${SHUTDOWN_TIMEOUT_MS} ms)`);
    expect(ended).toEqual({ code: 1, signal: null });
    expect(ms).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2_000);
    expect(server.output.join('')).toContain('graceful stop: killed by timeout');
    for (const status of statuses) expect(String(status)).not.toMatch(/^5(?!03)/);
  }, 60_000);
});
