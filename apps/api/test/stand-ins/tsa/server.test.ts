// The TSA stand-in (server.ts) checked from the outside, with OpenSSL as the client: queries made by
// `openssl ts -query`, replies checked by `openssl ts -verify` against the stand-in's root CA.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTsaStandIn, type TsaStandIn } from './server.js';

const run = promisify(execFile);
let tsa: TsaStandIn;
let work: string;

beforeAll(async () => {
  tsa = await startTsaStandIn();
  work = await mkdtemp(join(tmpdir(), 'provee-tsa-test-'));
});
afterAll(async () => {
  await tsa?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

let files = 0;
async function dataFile(content: string) {
  const file = join(work, `data-${++files}.txt`);
  await writeFile(file, content);
  return file;
}

/** A DER TimeStampReq for the file's SHA-256, asking for the TSA's certificate in the reply. */
async function query(data: string, { nonce = false, digest = '-sha256' } = {}) {
  const out = join(work, `query-${++files}.tsq`);
  await run('openssl', ['ts', '-query', '-data', data, digest, '-cert', ...(nonce ? [] : ['-no_nonce']), '-out', out]);
  return readFile(out);
}

async function post(body: Buffer | string, contentType = 'application/timestamp-query', method = 'POST') {
  const response = await fetch(`${tsa.url}/tsr`, {
    method,
    headers: { 'content-type': contentType },
    ...(method === 'POST' ? { body } : {}),
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

/** `openssl ts -verify` of a reply against the data and the stand-in's root: exit code and stdout. */
async function verify(reply: Buffer, data: string) {
  const file = join(work, `reply-${++files}.tsr`);
  await writeFile(file, reply);
  const args = ['ts', '-verify', '-in', file, '-data', data, '-CAfile', tsa.caFile, '-untrusted', tsa.tsaCertFile];
  try {
    const { stdout } = await run('openssl', args);
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

/** The reply as `openssl ts -reply -text` prints it. */
async function replyText(reply: Buffer) {
  const file = join(work, `reply-${++files}.tsr`);
  await writeFile(file, reply);
  return (await run('openssl', ['ts', '-reply', '-in', file, '-text'])).stdout;
}

describe('TSA stand-in', () => {
  it('makes a root CA and a TSA certificate for time-stamping only', async () => {
    expect(tsa.caCertificatePem).toContain('-----BEGIN CERTIFICATE-----');
    const { stdout } = await run('openssl', ['x509', '-in', tsa.tsaCertFile, '-noout', '-text']);
    expect(stdout).toContain('Issuer: CN = Provee Test TSA Root');
    expect(stdout).toMatch(/Extended Key Usage: critical\s+Time Stamping/);
    expect(stdout).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
  });

  it('stamps a query; the reply verifies for that data and not for other data', async () => {
    const data = await dataFile('the signed contract');
    const { response, body } = await post(await query(data));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/timestamp-reply');

    const ok = await verify(body, data);
    expect(ok).toEqual({ code: 0, stdout: expect.stringContaining('Verification: OK') });
    const text = await replyText(body);
    expect(text).toContain('Status: Granted.');
    expect(text).toContain('TSA: DirName:/CN=Provee Test TSA');

    const other = await verify(body, await dataFile('a different contract'));
    expect(other.code).not.toBe(0);
    expect(other.stdout).toContain('Verification: FAILED');
  });

  it('answers 503 while down and stamps again once back up', async () => {
    const data = await dataFile('while the vendor is down');
    const before = tsa.requests;
    tsa.setDown(true);
    const refused = await post(await query(data));
    expect(refused.response.status).toBe(503);
    expect(refused.body.toString()).toContain('down');

    tsa.setDown(false);
    const { response, body } = await post(await query(data));
    expect(response.status).toBe(200);
    expect((await verify(body, data)).stdout).toContain('Verification: OK');
    expect(tsa.requests).toBe(before + 2);
  });

  it('stamps parallel requests, each with its own serial number', async () => {
    const datas = await Promise.all(['first', 'second', 'third', 'fourth'].map((text) => dataFile(text)));
    const replies = await Promise.all(datas.map(async (data) => post(await query(data, { nonce: true }))));
    const serials = new Set<string>();
    for (const [i, { response, body }] of replies.entries()) {
      expect(response.status).toBe(200);
      expect((await verify(body, datas[i]!)).stdout).toContain('Verification: OK');
      serials.add(/Serial number: (\S+)/.exec(await replyText(body))![1]!);
    }
    expect(serials.size).toBe(datas.length);
  });

  it('refuses what is not a time-stamp query', async () => {
    const data = await dataFile('refused');
    expect((await post('', 'application/timestamp-query', 'GET')).response.status).toBe(405);
    expect((await post(await query(data), 'application/octet-stream')).response.status).toBe(415);
    expect((await post(Buffer.from('not DER at all'))).response.status).toBe(400);
    expect((await post(Buffer.alloc(64 * 1024 + 1))).response.status).toBe(413);
  });

  it('rejects, inside a 200 reply, a digest it does not accept (as a real TSA does)', async () => {
    const { response, body } = await post(await query(await dataFile('sha-1'), { digest: '-sha1' }));
    expect(response.status).toBe(200);
    expect(await replyText(body)).toContain('Status: Rejected.');
  });
});
