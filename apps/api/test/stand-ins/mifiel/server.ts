/**
 * Mifiel's NOM-151 PSC API, standing in for it in tests, built from its public documentation and
 * independent of the product's code (its own HMAC check; OpenSSL makes the RFC 3161 requests):
 *
 * - https://blog.mifiel.com/api-nom-151-constancias-conservacion: `POST /api/v1/psc/nom151` with
 *   the document's SHA-256 (`hash`, hex) and the caller's `external_id`, answered with the
 *   constancia: `{ id, nom151 (base64 DER TimeStampResp), created_at, certificate (base64 DER of
 *   the PSC's certificate), hash }`; `GET /api/v1/psc/nom151/:id` gives one back.
 * - github.com/Mifiel/mifiel-js, packages/api-client-auth (and github.com/Mifiel/api-doc,
 *   "Authentication"): requests are signed "APIAuth <app id>:<signature>", the signature being
 *   base64(HMAC-SHA1(app secret, "METHOD,content-type,content-md5,request-uri,date")).
 * - github.com/mgomes/api_auth, the gem Mifiel's servers and clients use (ApiAuth.authentic?, 2.x):
 *   the server rebuilds the canonical string from the headers it received (absent ones as ''), a
 *   POST/PUT's Content-MD5 must be the body's when sent, the signature must match (SHA1 unless the
 *   header names APIAuth-HMAC-<digest>), and the Date must be within 900 s of its clock, both ways.
 *   Unlike 2.0-2.4, an empty Content-MD5 is not checked (1.x did not either): mifiel-js sends ''.
 *
 * The constancia is a real RFC 3161 answer: `openssl ts -query -digest <hash> -sha256 -cert`
 * stamped by the OpenSSL-backed TSA stand-in (../tsa/server.ts) at `tsaUrl`. A real PSC's token
 * names its NOM-151 policy (e.g. 2.16.484.101.10.316.2.1.1.2.1, not confirmed); the TSA stand-in
 * rejects policies other than its own, so the query asks for none and gets its default.
 *
 * Answers: 201 with the constancia; 200 for a GET of one; 401 `{"errors":[…]}` when the
 * authentication fails; 422 for a `hash` that is not 64 hex digits; 400 for a body that is not a
 * JSON object; 404 elsewhere; 502 when the TSA does not grant; 503 while `setDown(true)`.
 * `setFault` makes it misbehave the ways a client must refuse.
 */
import { execFile } from 'node:child_process';
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * How the stand-in misbehaves: echo another `hash` than the one asked, stamp another digest, or
 * answer a constancia whose signature no longer verifies (its last byte, in the signature, flipped).
 */
export type MifielFault = 'echo-other-hash' | 'stamp-other-hash' | 'bad-signature' | null;

export interface MifielRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** What the stand-in answered. */
  status: number;
}

export interface MifielConstancia {
  id: string;
  nom151: string;
  created_at: string;
  certificate: string;
  hash: string;
  external_id: string | null;
}

export interface MifielStandIn {
  /** Base URL up to the version, like MIFIEL_BASE_URL: http://127.0.0.1:<port>/api/v1. */
  url: string;
  /** Every request received, in order. */
  readonly requests: MifielRequest[];
  /** Constancias issued, by id. */
  readonly issued: ReadonlyMap<string, MifielConstancia>;
  /** While down, every request is answered 503. */
  setDown(down: boolean): void;
  setFault(fault: MifielFault): void;
  close(): Promise<void>;
}

export interface MifielStandInOptions {
  appId: string;
  appSecret: string;
  /** The RFC 3161 TSA that stamps (the TSA stand-in's url). */
  tsaUrl: string;
  /** The server's clock for the Date check. */
  now?: () => Date;
}

const OPENSSL = process.env.OPENSSL_BIN ?? 'openssl';
const run = promisify(execFile);
const MAX_BODY_BYTES = 64 * 1024;
const CLOCK_SKEW_S = 900;
const AUTH_HEADER = /^APIAuth(?:-HMAC-(MD5|SHA(?:1|224|256|384|512)?))? ([^:]+):(.+)$/;
const PREFIX = '/api/v1';

export async function startMifielStandIn(options: MifielStandInOptions): Promise<MifielStandIn> {
  const now = options.now ?? (() => new Date());
  const work = await mkdtemp(join(tmpdir(), 'provee-mifiel-'));
  const requests: MifielRequest[] = [];
  const issued = new Map<string, MifielConstancia>();
  let down = false;
  let fault: MifielFault = null;

  /** Why api_auth would refuse this request, or null when it is authentic. */
  function unauthentic(request: IncomingMessage, body: Buffer): string | null {
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const match = AUTH_HEADER.exec(header('authorization') ?? '');
    if (!match) return 'Authorization header missing or not APIAuth';
    const [, digest = 'SHA1', appId, signature] = match;
    if (appId !== options.appId) return 'Unknown app id';
    const method = request.method!.toUpperCase();
    const contentMd5 = header('content-md5');
    if ((method === 'POST' || method === 'PUT') && contentMd5) {
      if (createHash('md5').update(body).digest('base64') !== contentMd5) return 'Content-MD5 does not match the body';
    }
    const date = header('date') ?? '';
    const canonical = [method, header('content-type') ?? '', contentMd5 ?? '', request.url ?? '/', date].join(',');
    let expected: Buffer;
    try {
      expected = createHmac(digest.toLowerCase(), options.appSecret).update(canonical).digest();
    } catch {
      return `Unsupported digest ${digest}`;
    }
    const received = Buffer.from(signature!, 'base64');
    if (received.length !== expected.length || !timingSafeEqual(received, expected)) return 'Invalid signature';
    const at = Date.parse(date);
    const skew = (at - now().getTime()) / 1000;
    if (Number.isNaN(at) || !(Math.abs(skew) < CLOCK_SKEW_S)) return 'Date header missing or out of the time window';
    return null;
  }

  /** A TimeStampResp (DER) for the SHA-256 `hex`, from the TSA; and the signer's certificate (DER). */
  async function stamp(hex: string): Promise<{ reply: Buffer; certificate: Buffer }> {
    const dir = await mkdtemp(join(work, 'request-'));
    try {
      const query = join(dir, 'query.tsq');
      await run(OPENSSL, ['ts', '-query', '-digest', hex, '-sha256', '-cert', '-out', query]);
      const response = await fetch(options.tsaUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query' },
        body: await readFile(query),
      });
      if (response.status !== 200) throw new TsaRefused(`TSA answered HTTP ${response.status}`);
      const reply = Buffer.from(await response.arrayBuffer());
      const replyFile = join(dir, 'reply.tsr');
      await writeFile(replyFile, reply);
      const { stdout } = await run(OPENSSL, ['ts', '-reply', '-in', replyFile, '-text']);
      if (!/^Status: Granted\./m.test(stdout)) throw new TsaRefused('TSA did not grant the time-stamp');
      const token = join(dir, 'token.der');
      await run(OPENSSL, ['ts', '-reply', '-in', replyFile, '-token_out', '-out', token]);
      const certs = await run(OPENSSL, ['pkcs7', '-inform', 'DER', '-in', token, '-print_certs']);
      // OpenSSL's TSA puts its signing certificate first, then the `certs` of its config.
      const pem = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(certs.stdout);
      if (!pem) throw new TsaRefused('TSA reply without its certificate');
      return { reply, certificate: Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function certify(body: Buffer, response: ServerResponse) {
    let input: unknown;
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(response, 400, { errors: ['Body is not JSON'] });
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return sendJson(response, 400, { errors: ['Body is not a JSON object'] });
    const { hash, external_id: externalId } = input as { hash?: unknown; external_id?: unknown };
    if (typeof hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hash))
      return sendJson(response, 422, { errors: ['hash must be a SHA-256 in hex (64 digits)'] });
    if (externalId !== undefined && externalId !== null && typeof externalId !== 'string')
      return sendJson(response, 422, { errors: ['external_id must be a string'] });
    const stamped = fault === 'stamp-other-hash' ? randomBytes(32).toString('hex') : hash;
    let result: Awaited<ReturnType<typeof stamp>>;
    try {
      result = await stamp(stamped);
    } catch (error) {
      if (error instanceof TsaRefused) return sendJson(response, 502, { errors: [error.message] });
      throw error;
    }
    if (fault === 'bad-signature') result.reply[result.reply.length - 1]! ^= 0x01;
    const constancia: MifielConstancia = {
      id: randomUUID(),
      nom151: result.reply.toString('base64'),
      created_at: now().toISOString(),
      certificate: result.certificate.toString('base64'),
      hash: fault === 'echo-other-hash' ? randomBytes(32).toString('hex') : hash,
      external_id: externalId ?? null,
    };
    issued.set(constancia.id, constancia);
    sendJson(response, 201, constancia);
  }

  async function handle(request: IncomingMessage, response: ServerResponse, body: Buffer | undefined) {
    if (down) return sendJson(response, 503, { errors: ['Mifiel stand-in is down (setDown(true))'] });
    if (!body) return sendJson(response, 413, { errors: [`Bodies are at most ${MAX_BODY_BYTES} bytes`] });
    const why = unauthentic(request, body);
    if (why) return sendJson(response, 401, { errors: [why] });
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    if (path === `${PREFIX}/psc/nom151` && request.method === 'POST') return certify(body, response);
    const one = new RegExp(`^${PREFIX}/psc/nom151/([^/]+)$`).exec(path);
    if (one && request.method === 'GET') {
      const found = issued.get(decodeURIComponent(one[1]!));
      return found ? sendJson(response, 200, found) : sendJson(response, 404, { errors: ['Not found'] });
    }
    sendJson(response, 404, { errors: ['Not found'] });
  }

  const server = createServer((request, response) => {
    const record: MifielRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: '',
      status: 0,
    };
    requests.push(record);
    response.on('finish', () => void (record.status = response.statusCode));
    readBody(request)
      .then((body) => {
        record.body = body?.toString('utf8') ?? '';
        return handle(request, response, body);
      })
      .catch((error: unknown) => sendJson(response, 500, { errors: [`Mifiel stand-in failed: ${String(error)}`] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${PREFIX}`,
    requests,
    issued,
    setDown: (value) => void (down = value),
    setFault: (value) => void (fault = value),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await rm(work, { recursive: true, force: true });
    },
  };
}

class TsaRefused extends Error {}

/** The whole body, drained so the connection stays usable, or undefined when over the cap. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined;
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
