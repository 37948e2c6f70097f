// The sealed contract (issue 36), read by independent tools: Debian's pdfsig (poppler) for the
// PAdES seal, OpenSSL for the lender's certificate (made with `openssl req`/`pkcs12`) and for the
// RFC 3161 token (`openssl ts -verify`), the time-stamping authority a real one (OpenSSL's own TSA
// behind HTTP: test/stand-ins/tsa). The TSA down at the signature: the signer's answer does not
// wait, and the token goes in once it is back, after a restart.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTsaStandIn, type TsaStandIn } from '../../../../test/stand-ins/tsa/server.js';
import { auditEvents, contracts } from '../../../db/schema.js';
import { createPng } from '../../../test/factories.js';
import { bearer, MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../../test/signer.js';
import { staffSession } from '../../../test/staff.js';
import { createTestApp, HAND_DRIVEN_JOB_KINDS, type TestApp } from '../../../test/test-app.js';
import type { App } from '../../../types.js';
import { signingDeps } from '../deps.js';
import { completeSeal } from './completion.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'provee-sealed-'));
let tsa: TsaStandIn;
let lenderP12: string;

/** The lender's certificate as a lender would make it: OpenSSL, RSA, a PKCS#12 with a password. */
async function makeLenderP12() {
  const key = join(dir, 'lender-key.pem');
  const cert = join(dir, 'lender-cert.pem');
  const p12 = join(dir, 'lender.p12');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '30',
    '-subj',
    '/O=Prestamos Prueba SA/CN=Prestamos Prueba SA sello de contratos',
  ]);
  await run('openssl', [
    'pkcs12',
    '-export',
    '-inkey',
    key,
    '-in',
    cert,
    '-out',
    p12,
    '-passout',
    'pass:clave-del-sello',
  ]);
  return p12;
}

beforeAll(async () => {
  tsa = await startTsaStandIn();
  lenderP12 = await makeLenderP12();
});
afterAll(async () => {
  await tsa.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The seal's completion runs on the queue, as in production; the other jobs stay driven by hand. */
const QUEUED_COMPLETION = HAND_DRIVEN_JOB_KINDS.split(',')
  .filter((kind) => kind !== 'contract-seal-completion')
  .join(',');

const sealEnv = () => ({
  ...MANY_UPLOADS_ENV,
  CONTRACT_SEAL_P12_FILE: lenderP12,
  CONTRACT_SEAL_P12_PASSWORD: 'clave-del-sello',
  CONTRACT_TSA_URL: tsa.url,
  JOB_KINDS_OFF: QUEUED_COMPLETION,
  JOB_POLL_INTERVAL_MS: '200',
  JOB_RETRY_DELAY_SECONDS: '1',
});

const signedPdf = async (app: App, signer: { userId: string; token: string }) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/v1/users/SK/${signer.userId}/contract`,
    headers: bearer(signer.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
};
const evidence = async (app: App, signer: { userId: string; token: string }) =>
  (
    await app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${signer.userId}/contract/evidence`,
      headers: bearer(signer.token),
    })
  ).json().data;

async function pdfsig(pdf: Uint8Array, name: string) {
  const file = join(dir, name);
  writeFileSync(file, pdf);
  // pdfsig exits non-zero for a signature that does not verify: its report is what is read.
  const out = await run('pdfsig', ['-nocert', file]).catch((error: { stdout: string }) => error);
  await run('pdfsig', ['-nocert', '-dump', file], { cwd: dir }).catch(() => undefined);
  return { report: out.stdout, cms: `${file}.sig0` };
}

/**
 * The seal's time-stamp token and signature value, cut out of the CMS pdfsig dumped with
 * `openssl asn1parse`: the SignerInfo's signature is the OCTET STRING before its `[1]` (unsigned
 * attributes), whose one value is the token.
 */
async function tokenAndSignature(cmsFile: string) {
  const { stdout } = await run('openssl', ['asn1parse', '-inform', 'DER', '-in', cmsFile]);
  const lines = stdout.split('\n').map((line) => {
    const match = /^\s*(\d+):d=\s*(\d+)\s+hl=\s*(\d+)\s+l=\s*(\d+)\s+(\w+):\s*(.*)$/.exec(line);
    return match && { offset: +match[1]!, depth: +match[2]!, header: +match[3]!, length: +match[4]!, rest: match[6]! };
  });
  const entries = lines.filter((line): line is NonNullable<typeof line> => Boolean(line));
  const stampAt = entries.findIndex((line) => line.rest.includes('id-smime-aa-timeStampToken'));
  expect(stampAt, 'the seal carries a time-stamp token').toBeGreaterThan(0);
  const unsigned = entries.slice(0, stampAt).findLast((line) => line.rest.startsWith('cont [ 1 ]'))!;
  const signature = entries
    .slice(0, entries.indexOf(unsigned))
    .findLast((line) => line.rest.startsWith('OCTET STRING'))!;
  const token = entries[stampAt + 2]!; // the attribute's SET, then its one value: the token's ContentInfo
  const der = readFileSync(cmsFile);
  const cut = (at: typeof token) => der.subarray(at.offset, at.offset + at.header + at.length);
  const tokenFile = `${cmsFile}.tsr`;
  writeFileSync(tokenFile, cut(token));
  return { tokenFile, signatureValue: cut(signature).subarray(signature.header) };
}

describe('the sealed contract (PAdES, RFC 3161)', () => {
  it('the last signature seals the PDF with the configured certificate, and the time-stamp goes in after the answer', async () => {
    const t = await createTestApp(sealEnv());
    try {
      const signer = await verifiedSigner(t.app);
      const signed = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
      expect(signed.statusCode, signed.body).toBe(200);
      await vi.waitFor(async () => expect((await evidence(t.app, signer)).seal.timestamp.status).toBe('stamped'), {
        timeout: 15_000,
        interval: 200,
      });
      const pdf = await signedPdf(t.app, signer);
      const { report, cms } = await pdfsig(pdf, 'stamped.pdf');
      expect(report).toContain('Signer Certificate Common Name: Prestamos Prueba SA sello de contratos');
      expect(report).toContain('Signature Type: ETSI.CAdES.detached');
      expect(report).toContain('Total document signed');
      expect(report).toContain('Signature Validation: Signature is Valid.');
      // The token covers the seal's signature value, and OpenSSL accepts it against the TSA's root.
      const { tokenFile, signatureValue } = await tokenAndSignature(cms);
      const valueFile = `${cms}.value`;
      writeFileSync(valueFile, signatureValue);
      const verified = await run('openssl', [
        'ts',
        '-verify',
        '-in',
        tokenFile,
        '-token_in',
        '-data',
        valueFile,
        '-CAfile',
        tsa.caFile,
        '-untrusted',
        tsa.tsaCertFile,
      ]);
      expect(verified.stdout).toContain('Verification: OK');
      // The evidence JSON says who sealed and who dated it; the file served is the one recorded.
      const data = await evidence(t.app, signer);
      expect(data.seal).toMatchObject({
        certificate_name: 'Prestamos Prueba SA sello de contratos',
        development: false,
        timestamp: { status: 'stamped', authority: tsa.url },
        nom151: { status: 'not_required' },
      });
      expect(data.signed_sha256).toBe((await run('sha256sum', [join(dir, 'stamped.pdf')])).stdout.slice(0, 64));
      expect(data.signers[0].audit_chain_head).toMatch(/^[0-9a-f]{64}$/);
      // The chain tells it in order, each event naming the file it speaks of.
      const trail = (
        await t.app.db
          .select()
          .from(auditEvents)
          .where(eq(auditEvents.applicationId, signer.userId))
          .orderBy(auditEvents.id)
      ).filter((event) => ['contract.signed', 'contract.sealed', 'contract.timestamped'].includes(event.type));
      expect(
        trail.map((event) => [event.type, (event.payload as { contract_sha256: string }).contract_sha256]),
      ).toEqual([
        ['contract.signed', data.seal.sealed_sha256],
        ['contract.sealed', data.seal.sealed_sha256],
        ['contract.timestamped', data.signed_sha256],
      ]);
      // One byte changed inside the covered range: pdfsig says the document was modified.
      const changed = Buffer.from(pdf);
      // A text of the document's info (a UTF-16 hex string): one hex digit changed, still a readable PDF.
      const text = changed.indexOf('<FEFF0');
      expect(text).toBeGreaterThan(0);
      changed[text + 5] = '1'.charCodeAt(0);
      expect((await pdfsig(changed, 'changed.pdf')).report).toContain('Signature Validation: Digest Mismatch.');
    } finally {
      await t.close();
    }
  });

  it('the TSA down at the signature: the signer’s answer is at once; the token goes in once it is back, after a restart', async () => {
    tsa.setDown(true);
    const a = await createTestApp(sealEnv());
    let b: TestApp | undefined;
    try {
      const signer = await verifiedSigner(a.app);
      const started = Date.now();
      const signed = await sendSignature(a.app, signer, createPng({ width: 300, height: 470 }));
      expect(signed.statusCode, signed.body).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      // Sealed, waiting for its time-stamp: the seal is valid already, without a token.
      expect((await evidence(a.app, signer)).seal.timestamp).toMatchObject({ status: 'waiting' });
      const sealedCopy = await signedPdf(a.app, signer);
      const { report } = await pdfsig(sealedCopy, 'waiting.pdf');
      expect(report).toContain('Signature Validation: Signature is Valid.');
      // Its job tries the authority, which refuses; the process stops.
      await vi.waitFor(
        async () => expect((await evidence(a.app, signer)).seal.timestamp.attempts).toBeGreaterThanOrEqual(1),
        { timeout: 10_000, interval: 200 },
      );
      const requestsBefore = tsa.requests;
      await a.app.close();

      tsa.setDown(false);
      b = await createTestApp(sealEnv(), undefined, { database: a.database });
      const app = b.app;
      await vi.waitFor(async () => expect((await evidence(app, signer)).seal.timestamp.status).toBe('stamped'), {
        timeout: 20_000,
        interval: 250,
      });
      expect(tsa.requests).toBeGreaterThan(requestsBefore);
      const stampedCopy = await signedPdf(app, signer);
      const { report: after } = await pdfsig(stampedCopy, 'later.pdf');
      expect(after).toContain('Signature Validation: Signature is Valid.');

      // "¿Es este documento el que firmamos?": both copies are; a changed one is not, and says why.
      const analyst = await staffSession(app, 'analyst');
      const check = (pdf: Uint8Array, type = 'application/pdf') =>
        app.inject({
          method: 'POST',
          url: `/api/backoffice/applications/${signer.userId}/contract/check`,
          headers: { ...analyst.headers, 'content-type': type },
          payload: Buffer.from(pdf),
        });
      expect((await check(sealedCopy)).json().data).toMatchObject({
        matches: true,
        version: 'sealed',
        seal: { intact: true, whole_document: true, ours: true },
      });
      const stamped = (await check(stampedCopy)).json().data;
      expect(stamped).toMatchObject({ matches: true, version: 'stamped', seal: { intact: true, ours: true } });
      expect(stamped.readable_message).toMatch(/^Sí\./);
      const changed = Buffer.from(stampedCopy);
      changed[changed.indexOf('<FEFF0') + 5] = '1'.charCodeAt(0);
      const refused = (await check(changed)).json().data;
      expect(refused).toMatchObject({ matches: false, version: null, seal: { intact: false } });
      expect(refused.readable_message).toMatch(/^No\. Este archivo fue modificado/);
      // Content added after the sealed bytes (an incremental update): the seal still verifies over
      // what it covers, but not over the whole file; pdfsig says the same.
      const appended = Buffer.concat([
        Buffer.from(stampedCopy),
        Buffer.from('\n99 0 obj\n<< /Agregado (otra cosa) >>\nendobj\n%%EOF\n', 'latin1'),
      ]);
      const { report: appendedReport } = await pdfsig(appended, 'appended.pdf');
      expect(appendedReport).toContain('Not total document signed');
      const extended = (await check(appended)).json().data;
      expect(extended).toMatchObject({
        matches: false,
        version: null,
        seal: { intact: true, whole_document: false, ours: true },
      });
      expect(extended.readable_message).toMatch(/^No\. El sello de este archivo no cubre todo el documento/);
      expect((await check(Buffer.from('no es un pdf'))).json().data).toMatchObject({ matches: false, seal: null });
      const wrongType = await check(stampedCopy, 'application/octet-stream');
      expect(wrongType.statusCode).toBe(415);
      expect(wrongType.json().readable_message).toBe('Formato de la solicitud no soportado.');
      // Each check is on the application's chain, with who made it; an advisor may not make one.
      const checks = await app.db
        .select()
        .from(auditEvents)
        .where(
          and(eq(auditEvents.applicationId, signer.userId), eq(auditEvents.type, 'backoffice.contract_copy_checked')),
        );
      expect(checks.map((event) => event.payload)).toContainEqual(
        expect.objectContaining({ matches: false, sha256: createHash('sha256').update(changed).digest('hex') }),
      );
      expect(checks.every((event) => event.actor === `staff:${analyst.member.id}`)).toBe(true);
      const advisor = await staffSession(app, 'advisor');
      const forbidden = await app.inject({
        method: 'POST',
        url: `/api/backoffice/applications/${signer.userId}/contract/check`,
        headers: { ...advisor.headers, 'content-type': 'application/pdf' },
        payload: Buffer.from(stampedCopy),
      });
      expect(forbidden.statusCode).toBe(403);
    } finally {
      tsa.setDown(false);
      await b?.app.close();
      await a.close();
    }
  });

  it('in Mexico without configured providers: a development seal that says so, the simulators’ time-stamp and NOM-151 certificate', async () => {
    const dataDir = join(dir, 'mx-data');
    const t = await createTestApp({
      ...MANY_UPLOADS_ENV,
      COUNTRY: 'mx',
      DATA_DIR: dataDir,
      JOB_KINDS_OFF: QUEUED_COMPLETION,
      JOB_POLL_INTERVAL_MS: '200',
    });
    try {
      // The start made the development certificates, before any contract needed them.
      expect(
        readdirSync(dataDir)
          .filter((name) => name.endsWith('.p12'))
          .sort(),
      ).toEqual(['contract-seal-development.p12', 'tsa-development.p12']);
      const signer = await verifiedSigner(t.app);
      expect((await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }))).statusCode).toBe(200);
      await vi.waitFor(async () => expect((await evidence(t.app, signer)).seal.nom151.status).toBe('issued'), {
        timeout: 15_000,
        interval: 200,
      });
      const data = await evidence(t.app, signer);
      expect(data.seal).toMatchObject({
        development: true,
        timestamp: { status: 'stamped', authority: 'simulador' },
        nom151: { status: 'issued', provider: 'simulador', sha256: data.signed_sha256 },
      });
      const pdf = await signedPdf(t.app, signer);
      const { report } = await pdfsig(pdf, 'mx.pdf');
      expect(report).toMatch(/Signer Certificate Common Name: .* - sello de desarrollo \(sin validez\)/);
      expect(report).toContain('Signature Validation: Signature is Valid.');
      // The reason says it in the file itself (pdfsig does not print it).
      expect(
        Buffer.from(pdf).includes(
          '/Reason (MODO DE PRUEBA: sello con un certificado de desarrollo, sin validez legal)',
        ),
      ).toBe(true);
      // The NOM-151 certificate: an RFC 3161 answer over the kept file's SHA-256, signed by the
      // development authority (its certificate out of DATA_DIR with OpenSSL).
      const record = join(dir, 'nom151.tsr');
      writeFileSync(record, Buffer.from(data.seal.nom151.certificate, 'base64'));
      const authority = join(dir, 'tsa-development.pem');
      await run('openssl', [
        'pkcs12',
        '-in',
        join(dataDir, 'tsa-development.p12'),
        '-nokeys',
        '-passin',
        'pass:provee-development',
        '-out',
        authority,
      ]);
      const verified = await run('openssl', [
        'ts',
        '-verify',
        '-in',
        record,
        '-digest',
        data.signed_sha256,
        '-CAfile',
        authority,
      ]);
      expect(verified.stdout).toContain('Verification: OK');
    } finally {
      await t.close();
    }
  });
  it('two processes completing the same seal at once: one time-stamp, one NOM-151 certificate, one event each', async () => {
    const dataDir = join(dir, 'mx-race');
    // The completion driven by hand (the default of test apps), from two servers on one database.
    const a = await createTestApp({ ...MANY_UPLOADS_ENV, COUNTRY: 'mx', DATA_DIR: dataDir });
    const b = await createTestApp({ ...MANY_UPLOADS_ENV, COUNTRY: 'mx', DATA_DIR: dataDir }, undefined, {
      database: a.database,
    });
    try {
      const signer = await verifiedSigner(a.app);
      expect((await sendSignature(a.app, signer, createPng({ width: 300, height: 470 }))).statusCode).toBe(200);
      const [contract] = await a.app.db.select().from(contracts).where(eq(contracts.userId, signer.userId));
      await Promise.all([a, b, a, b].map((one) => completeSeal(signingDeps(one.app), contract!.id)));
      const events = await a.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, signer.userId));
      const count = (type: string) => events.filter((event) => event.type === type).length;
      expect([count('contract.sealed'), count('contract.timestamped'), count('contract.nom151_issued')]).toEqual([
        1, 1, 1,
      ]);
      // The file kept is the one its hash, the time-stamp's event and the NOM-151 certificate name.
      const data = await evidence(a.app, signer);
      const kept = createHash('sha256')
        .update(await signedPdf(a.app, signer))
        .digest('hex');
      expect(data.signed_sha256).toBe(kept);
      expect(data.seal).toMatchObject({ timestamp: { status: 'stamped' }, nom151: { status: 'issued', sha256: kept } });
      const stampedEvent = events.find((event) => event.type === 'contract.timestamped')!;
      expect(stampedEvent.payload).toMatchObject({ contract_sha256: kept });
    } finally {
      await b.close();
      await a.close();
    }
  });
});
