/**
 * A real RFC 3161 time-stamping authority (TSA), standing in for the vendor's in tests. It is
 * OpenSSL's own TSA (`openssl ts -reply`) behind the RFC 3161 HTTP transport: POST a DER
 * TimeStampReq as `application/timestamp-query`, get a signed DER TimeStampResp back as
 * `application/timestamp-reply`. On start it makes, in a temp dir, a root CA ("Provee Test TSA
 * Root") and a TSA certificate it signs (critical extendedKeyUsage timeStamping), so a reply
 * verifies with `openssl ts -verify -CAfile <caFile>` like a vendor's would against its root.
 *
 * Answers: 200 with the reply (which may itself say "rejected", e.g. for a digest the TSA does not
 * accept, as a real TSA does); 400 for a query that is not a TimeStampReq; 405 for anything but
 * POST; 415 for another content type; 413 over 64 KB; 503 while `setDown(true)`.
 *
 * OpenSSL pitfalls handled here:
 * - `ts -reply` exits 0 even for garbage: it answers a rejection with failInfo badDataFormat, so
 *   the 400 is read from the reply, not from the exit code.
 * - Its serial file is read, incremented and rewritten with no lock, so parallel replies sharing
 *   one fail ("unable to load number") or repeat serials. Each request gets its own serial file,
 *   named through `$ENV::TSA_SERIAL_FILE` in the config; it must hold an even number of hex digits.
 * - A config naming `$ENV::…` fails to load when that variable is unset, so the certificates are
 *   made with a second config (certs.cnf), which also needs a `distinguished_name` even with -subj.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface TsaStandIn {
  /** Base URL; any path takes queries. */
  url: string;
  /** The root CA certificate (PEM) that replies chain to. */
  caCertificatePem: string;
  /** The same root, as a file for `openssl ts -verify -CAfile`. */
  caFile: string;
  /** The TSA's signing certificate, as a file (for `-untrusted`). */
  tsaCertFile: string;
  /** While down, every request is answered 503. */
  setDown(down: boolean): void;
  /** Requests received, whatever their answer. */
  readonly requests: number;
  /** Stops listening and removes the temp dir (not a dir passed in as options.dir). */
  close(): Promise<void>;
}

const MAX_QUERY_BYTES = 64 * 1024;
const OPENSSL = process.env.OPENSSL_BIN ?? 'openssl';
const run = promisify(execFile);

/** Extensions of the two certificates. */
const CERTS_CNF = `[ req ]
distinguished_name = req_dn
prompt = no
[ req_dn ]
[ v3_ca ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ v3_tsa ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,nonRepudiation
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

/** The TSA itself (paths relative to the dir, where openssl runs). */
const TSA_CNF = `[ tsa ]
default_tsa = tsa_config1
[ tsa_config1 ]
serial = $ENV::TSA_SERIAL_FILE
crypto_device = builtin
signer_cert = tsa.pem
certs = ca.pem
signer_key = tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
other_policies = 1.2.3.4.5.6, 1.2.3.4.5.7
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

export async function startTsaStandIn(options: { dir?: string } = {}): Promise<TsaStandIn> {
  const dir = resolve(options.dir ?? (await mkdtemp(join(tmpdir(), 'provee-tsa-'))));
  await mkdir(dir, { recursive: true });
  const openssl = (args: string[], env: Record<string, string> = {}) =>
    run(OPENSSL, args, { cwd: dir, env: { ...process.env, ...env } });

  await writeFile(join(dir, 'certs.cnf'), CERTS_CNF);
  await writeFile(join(dir, 'tsa.cnf'), TSA_CNF);
  const newKey = (file: string) =>
    openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file]);
  await Promise.all([newKey('ca.key'), newKey('tsa.key')]);
  const root = ['-subj', '/CN=Provee Test TSA Root', '-key', 'ca.key', '-extensions', 'v3_ca', '-days', '3650'];
  await openssl(['req', '-config', 'certs.cnf', '-new', '-x509', ...root, '-out', 'ca.pem']);
  const leaf = ['-subj', '/CN=Provee Test TSA', '-key', 'tsa.key'];
  await openssl(['req', '-config', 'certs.cnf', '-new', ...leaf, '-out', 'tsa.csr']);
  const signedByRoot = ['-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', '2', '-days', '3650'];
  const tsaExtensions = ['-extfile', 'certs.cnf', '-extensions', 'v3_tsa'];
  await openssl(['x509', '-req', '-in', 'tsa.csr', ...signedByRoot, ...tsaExtensions, '-out', 'tsa.pem']);
  const caCertificatePem = await readFile(join(dir, 'ca.pem'), 'utf8');

  /** The DER TimeStampResp for a DER TimeStampReq. Each request works in a directory of its own. */
  async function stamp(query: Buffer): Promise<Buffer> {
    const work = await mkdtemp(join(dir, 'request-'));
    try {
      await writeFile(join(work, 'query.tsq'), query);
      await writeFile(join(work, 'serial'), `${randomBytes(8).toString('hex')}\n`);
      const reply = join(work, 'reply.tsr');
      await openssl(['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', join(work, 'query.tsq'), '-out', reply], {
        TSA_SERIAL_FILE: join(work, 'serial'),
      });
      return await readFile(reply);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  let down = false;
  let requests = 0;
  async function handle(request: IncomingMessage, response: ServerResponse) {
    const query = await readBody(request);
    if (down) return send(response, 503, 'TSA stand-in is down (setDown(true)).\n');
    if (request.method !== 'POST') return send(response, 405, 'Only POST.\n', { allow: 'POST' });
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/timestamp-query') return send(response, 415, 'Send application/timestamp-query.\n');
    if (!query) return send(response, 413, `Queries are at most ${MAX_QUERY_BYTES} bytes.\n`);
    const reply = await stamp(query);
    if (hasFailInfo(reply, BAD_DATA_FORMAT)) return send(response, 400, 'Not a TimeStampReq (badDataFormat).\n');
    send(response, 200, reply, { 'content-type': 'application/timestamp-reply' });
  }

  const server = createServer((request, response) => {
    requests++;
    handle(request, response).catch((error: unknown) => send(response, 500, `TSA stand-in failed: ${String(error)}\n`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    caCertificatePem,
    caFile: join(dir, 'ca.pem'),
    tsaCertFile: join(dir, 'tsa.pem'),
    setDown: (value) => void (down = value),
    get requests() {
      return requests;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The whole body, drained so the connection stays usable, or undefined when over the cap. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_QUERY_BYTES) chunks.push(chunk);
  }
  return size <= MAX_QUERY_BYTES ? Buffer.concat(chunks) : undefined;
}

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}

/** PKIFailureInfo bit (RFC 3161 §2.4.2): the query could not be parsed or is malformed. */
const BAD_DATA_FORMAT = 5;

/** Whether a DER TimeStampResp's PKIStatusInfo carries failInfo `bit`. */
function hasFailInfo(der: Buffer, bit: number): boolean {
  // A DER element at `at`: its tag and where its contents start and end.
  const element = (at: number) => {
    let length = der.readUInt8(at + 1);
    let start = at + 2;
    if (length & 0x80) [length, start] = [der.readUIntBE(start, length & 0x7f), start + (length & 0x7f)];
    return { tag: der.readUInt8(at), start, end: start + length };
  };
  // TimeStampResp ::= SEQUENCE { status PKIStatusInfo, … };
  // PKIStatusInfo ::= SEQUENCE { status INTEGER, statusString SEQUENCE OPTIONAL, failInfo BIT STRING OPTIONAL }
  const info = element(element(0).start);
  for (let at = info.start; at < info.end; at = element(at).end) {
    const field = element(at);
    const byte = field.start + 1 + (bit >> 3); // after the BIT STRING's unused-bits byte
    if (field.tag === 0x03) return byte < field.end && (der.readUInt8(byte) & (0x80 >> (bit & 7))) !== 0;
  }
  return false;
}
