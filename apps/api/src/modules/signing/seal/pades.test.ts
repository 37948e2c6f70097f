import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { readSignedData, signatureValueOf, timestampTokenOf, withTimestamp } from '../../../pki/cms.js';
import { addSealPlaceholder, applySeal, replaceSealCms, sealOf } from './pades.js';
import { developmentP12 } from '../../../pki/p12.js';

/** Debian's pdfsig (poppler-utils) reads the seal: never the product's own code. */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'provee-seal-'));
afterAll(() => (process.env.KEEP_SEAL_DIR ? console.log(dir) : rmSync(dir, { recursive: true, force: true })));

const credential = developmentP12(join(dir, 'seal.p12'), 'secreto', {
  commonName: 'Prestamos de Prueba seal',
  organization: 'Prestamos de Prueba',
});

async function sealedPdf() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Contrato de prueba', { x: 72, y: 760, font: await doc.embedFont(StandardFonts.Helvetica) });
  addSealPlaceholder(doc, {
    reason: 'Sello del otorgante',
    name: 'Prestamos de Prueba',
    location: 'Ciudad de Mexico',
    contactInfo: 'contratos@example.com',
    signingTime: new Date('2026-11-29T12:00:00Z'),
  });
  return applySeal(await doc.save({ useObjectStreams: false }), credential);
}

async function pdfsig(pdf: Uint8Array, name: string) {
  const file = join(dir, name);
  writeFileSync(file, pdf);
  // pdfsig exits 0 for a valid signature, non-zero otherwise; its report is what we read.
  const out = await run('pdfsig', ['-nocert', file]).catch((error: { stdout: string }) => error);
  return out.stdout;
}

describe('the PAdES seal', () => {
  it('pdfsig finds one ETSI.CAdES.detached signature, valid and covering the whole file, by the certificate', async () => {
    const report = await pdfsig(await sealedPdf(), 'sealed.pdf');
    expect(report).toContain('Signature #1');
    expect(report).toContain('Signer Certificate Common Name: Prestamos de Prueba seal');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Validation: Signature is Valid.');
  });

  it('one byte changed inside the covered range: pdfsig reports the document as modified', async () => {
    const pdf = await sealedPdf();
    const at = Buffer.from(pdf).indexOf('Contrato de prueba');
    const changed = Buffer.from(pdf);
    // The text is in a compressed stream or not: change a byte of the first page's object either way.
    changed[at >= 0 ? at : 200]! ^= 0x01;
    const report = await pdfsig(changed, 'changed.pdf');
    expect(report).not.toContain('Signature Validation: Signature is Valid.');
    expect(report).toMatch(
      /Signature Validation: (Digest Mismatch|Signature has not yet been verified|Signature is Invalid)/,
    );
  });

  it('a time-stamp token added in place keeps the covered bytes and the signature valid', async () => {
    const pdf = await sealedPdf();
    const seal = sealOf(pdf)!;
    expect(readSignedData(seal.cms).signerInfos).toHaveLength(1);
    // Any DER ContentInfo works as the attribute's value here; the real token is tested with a TSA.
    const stamped = replaceSealCms(pdf, withTimestamp(seal.cms, seal.cms));
    expect(stamped.length).toBe(pdf.length);
    expect(sealOf(stamped)!.covered.equals(seal.covered)).toBe(true);
    expect(timestampTokenOf(sealOf(stamped)!.cms)).toEqual(seal.cms);
    expect(signatureValueOf(sealOf(stamped)!.cms)).toEqual(signatureValueOf(seal.cms));
    expect(await pdfsig(stamped, 'stamped.pdf')).toContain('Signature Validation: Signature is Valid.');
  });
});
