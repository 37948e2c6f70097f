// The Mifiel adapter against the Mifiel stand-in (test/stand-ins/mifiel), whose constancias are real
// RFC 3161 answers of the OpenSSL TSA stand-in; OpenSSL checks what the adapter returns.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMifielStandIn, type MifielStandIn } from '../../../test/stand-ins/mifiel/server.js';
import { startTsaStandIn, type TsaStandIn } from '../../../test/stand-ins/tsa/server.js';
import { createConservationProvider } from './index.js';
import {
  apiAuthAuthorization,
  apiAuthCanonicalString,
  apiAuthSignature,
  createMifielConservation,
  MifielUnavailable,
} from './mifiel.js';
import { ConservationUnavailable } from './types.js';

const run = promisify(execFile);
const APP_ID = 'provee-test-app';
const APP_SECRET = 'mifiel-test-secret-9f8e7d';

let tsa: TsaStandIn;
let mifiel: MifielStandIn;
let work: string;

beforeAll(async () => {
  tsa = await startTsaStandIn();
  mifiel = await startMifielStandIn({ appId: APP_ID, appSecret: APP_SECRET, tsaUrl: tsa.url });
  work = await mkdtemp(join(tmpdir(), 'provee-mifiel-test-'));
});
afterAll(async () => {
  await mifiel?.close();
  await tsa?.close();
  if (work) await rm(work, { recursive: true, force: true });
});
afterEach(() => {
  mifiel.setDown(false);
  mifiel.setFault(null);
});

const provider = (options: Partial<Parameters<typeof createMifielConservation>[0]> = {}) =>
  createMifielConservation({ baseUrl: mifiel.url, appId: APP_ID, appSecret: APP_SECRET, ...options });

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let files = 0;
const document = (text = `contrato firmado ${++files}`) => new TextEncoder().encode(text);

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<MifielUnavailable> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConservationUnavailable);
  expect(error).toBeInstanceOf(MifielUnavailable);
  expect(String((error as Error).message)).not.toContain(APP_SECRET);
  return error as MifielUnavailable;
}

/** `openssl ts -verify` of a TimeStampResp file for a SHA-256 (hex), against the TSA stand-in's root. */
const verifyReply = (file: string, hex: string) =>
  run('openssl', ['ts', '-verify', '-in', file, '-digest', hex, '-CAfile', tsa.caFile, '-untrusted', tsa.tsaCertFile]);

/** The hex of the "Message data" dump in `openssl ts -reply -text`. */
function messageImprint(text: string): string {
  const dump = text.split('Message data:')[1]!.split(/\n(?!\s+[0-9a-f]{4} - )/)[0]!;
  return [...dump.matchAll(/^\s+[0-9a-f]{4} - ((?:[0-9a-f]{2}[ -]){1,16})/gm)]
    .map((line) => line[1]!.replace(/[ -]/g, ''))
    .join('');
}

describe('APIAuth signing (mifiel-js packages/api-client-auth, hmac-auth-interceptor.spec.ts)', () => {
  const vector = {
    method: 'POST',
    contentType: 'application/json',
    contentMd5: '',
    requestUri: '/api/v1/documents',
    date: new Date('2016-01-01T00:00:00Z').toUTCString(),
  };

  it('builds the canonical string and its signature as Mifiel’s own client does', () => {
    const canonical = apiAuthCanonicalString(vector);
    expect(canonical).toBe('POST,application/json,,/api/v1/documents,Fri, 01 Jan 2016 00:00:00 GMT');
    expect(apiAuthSignature(canonical, 'app-secret')).toBe('Qr94Z4Nvp0p5G1CsR5LpQDaTQXM=');
    expect(apiAuthAuthorization(vector, 'app-id', 'app-secret')).toBe('APIAuth app-id:Qr94Z4Nvp0p5G1CsR5LpQDaTQXM=');
  });
});

describe('Mifiel NOM-151 adapter', () => {
  it('certifies a document: a granted TimeStampResp over its SHA-256 that OpenSSL verifies', async () => {
    const contract = document();
    const hash = sha256(contract);
    const before = Date.now();
    const certificate = await provider().certify(contract, 'contract-123');

    // What reached Mifiel: only the hash and our reference, signed.
    const sent = mifiel.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/api/v1/psc/nom151', status: 201 });
    expect(JSON.parse(sent.body)).toEqual({ hash, external_id: 'contract-123' });
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['content-md5']).toBe(createHash('md5').update(sent.body).digest('base64'));
    expect(sent.headers.authorization).toMatch(new RegExp(`^APIAuth ${APP_ID}:[A-Za-z0-9+/]{27}=$`));
    expect(JSON.stringify(sent)).not.toContain(APP_SECRET);

    const issued = mifiel.issued.get(certificate.reference)!;
    expect(issued).toMatchObject({ hash, external_id: 'contract-123' });
    expect(Buffer.from(certificate.record).toString('base64')).toBe(issued.nom151);
    expect(certificate.issuedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(certificate.issuedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    // The PSC's certificate is the TSA's signing certificate.
    const tsaCertificate = await run('openssl', ['x509', '-in', tsa.tsaCertFile, '-outform', 'DER'], {
      encoding: 'buffer',
    });
    expect(issued.certificate).toBe(tsaCertificate.stdout.toString('base64'));

    const file = join(work, 'constancia.tsr');
    await writeFile(file, certificate.record);
    const { stdout: text } = await run('openssl', ['ts', '-reply', '-in', file, '-text']);
    expect(text).toMatch(/^Status: Granted\./m);
    expect(text).toMatch(/^Hash Algorithm: sha256$/m);
    expect(messageImprint(text)).toBe(hash);

    const { stdout: verified } = await verifyReply(file, hash);
    expect(verified).toContain('Verification: OK');
    // …and not for another document's hash.
    await expect(verifyReply(file, sha256(document()))).rejects.toThrow();
  });

  it('gives the constancia back by its id (signed GET)', async () => {
    const { reference, record } = await provider().certify(document(), 'contract-get');
    const url = new URL(`${mifiel.url}/psc/nom151/${reference}`);
    const date = new Date().toUTCString();
    const parts = { method: 'GET', contentType: '', contentMd5: '', requestUri: url.pathname, date };
    const response = await fetch(url, {
      headers: { date, authorization: apiAuthAuthorization(parts, APP_ID, APP_SECRET) },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; nom151: string };
    expect(body.id).toBe(reference);
    expect(body.nom151).toBe(Buffer.from(record).toString('base64'));
  });

  it('is refused with a wrong secret (401), without the secret in the message', async () => {
    const wrong = 'not-the-secret';
    const error = await failure(provider({ appSecret: wrong }).certify(document(), 'contract-401'));
    expect(error.status).toBe(401);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).not.toContain(wrong);
    expect(mifiel.requests.at(-1)!.status).toBe(401);
  });

  it('is refused with an unknown app id (401)', async () => {
    const error = await failure(provider({ appId: 'someone-else' }).certify(document(), 'contract-401b'));
    expect(error.status).toBe(401);
  });

  it('is refused when its Date is more than 15 minutes off the server’s (401)', async () => {
    const late = () => new Date(Date.now() - 16 * 60_000);
    const early = () => new Date(Date.now() + 16 * 60_000);
    expect((await failure(provider({ clock: late }).certify(document(), 'contract-late'))).status).toBe(401);
    expect((await failure(provider({ clock: early }).certify(document(), 'contract-early'))).status).toBe(401);
    // Within the window it is accepted.
    const skewed = () => new Date(Date.now() - 10 * 60_000);
    await expect(provider({ clock: skewed }).certify(document(), 'contract-skew')).resolves.toBeDefined();
  });

  it('the stand-in refuses a body that is not the one signed (Content-MD5)', async () => {
    const signedBody = JSON.stringify({ hash: sha256(document()), external_id: 'a' });
    const sentBody = signedBody.replace('"a"', '"b"');
    const date = new Date().toUTCString();
    const parts = {
      method: 'POST',
      contentType: 'application/json',
      contentMd5: createHash('md5').update(signedBody).digest('base64'),
      requestUri: '/api/v1/psc/nom151',
      date,
    };
    const response = await fetch(`${mifiel.url}/psc/nom151`, {
      method: 'POST',
      headers: {
        'content-type': parts.contentType,
        'content-md5': parts.contentMd5,
        date,
        authorization: apiAuthAuthorization(parts, APP_ID, APP_SECRET),
      },
      body: sentBody,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ errors: ['Content-MD5 does not match the body'] });
  });

  it('is unavailable while Mifiel is down (503)', async () => {
    mifiel.setDown(true);
    const error = await failure(provider().certify(document(), 'contract-503'));
    expect(error.status).toBe(503);
  });

  it('refuses an answer for another hash', async () => {
    mifiel.setFault('echo-other-hash');
    const error = await failure(provider().certify(document(), 'contract-echo'));
    expect(error.message).toContain('another hash');
  });

  it('refuses a constancia stamped over another digest', async () => {
    mifiel.setFault('stamp-other-hash');
    const error = await failure(provider().certify(document(), 'contract-stamp'));
    expect(error.message).toContain('covers another digest');
  });

  it('refuses a constancia whose signature does not verify', async () => {
    mifiel.setFault('bad-signature');
    const error = await failure(provider().certify(document(), 'contract-signature'));
    expect(error.message).toContain('signature does not verify');
  });

  it('is unavailable when Mifiel cannot be reached or does not answer in time', async () => {
    const silent: Server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const slow = provider({ baseUrl: `http://127.0.0.1:${port}/api/v1`, timeoutMs: 200 });
      const timedOut = await failure(slow.certify(document(), 'contract-timeout'));
      expect(timedOut.status).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => {
        silent.close(() => resolve());
        silent.closeAllConnections();
      });
    }
    // The same port, now closed.
    const closed = provider({ baseUrl: `http://127.0.0.1:${port}/api/v1` });
    expect((await failure(closed.certify(document(), 'contract-closed'))).message).toContain('did not answer');
  });

  it('is what NOM151_PROVIDER=mifiel makes; the simulator otherwise', async () => {
    const config = {
      MIFIEL_BASE_URL: mifiel.url,
      MIFIEL_APP_ID: APP_ID,
      MIFIEL_APP_SECRET: APP_SECRET,
    };
    const noAuthority = () => Promise.reject(new Error('not used'));
    const real = createConservationProvider({ ...config, NOM151_PROVIDER: 'mifiel' }, noAuthority);
    expect(real.name).toBe('mifiel');
    const contract = document();
    const { record } = await real.certify(contract, 'contract-config');
    const file = join(work, 'config.tsr');
    await writeFile(file, record);
    const { stdout } = await run('openssl', ['ts', '-reply', '-in', file, '-text']);
    expect(messageImprint(stdout)).toBe(sha256(contract));
    expect(createConservationProvider({ ...config, NOM151_PROVIDER: 'simulator' }, noAuthority).name).toBe('simulador');
  });
});
