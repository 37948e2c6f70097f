import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { openApplicationByPhone, staffAtDesk } from './backoffice-desk.js';
import { smsWith } from './helpers.js';
import {
  APPROVED,
  drawSignature,
  JUST_STARTED,
  openSigningLink,
  serverStatus,
  stampedEvidence,
  verifyIdentity,
} from './signing-helpers.js';

/**
 * Issue 36, the sealed contract: the last signature seals the signed PDF with the lender's
 * certificate (PAdES, a development one on a server started without CONTRACT_SEAL_P12_FILE) and the
 * simulated RFC 3161 authority's time-stamp goes in shortly after. The copy the signer's SMS links to
 * is the sealed file as Debian's pdfsig reads it; an analyst at a desk sees the seal and asks the
 * back office whether a PDF someone sent is the one signed: the copy is, a copy with one byte changed
 * is not.
 */

const DEVELOPMENT_SEAL = ' - sello de desarrollo (sin validez)';

/** Only one of the two phone runs keeps the desk's screenshots (the same screen at the same size). */
const deskScreenshot = () => test.info().project.metadata.server === 'do';

test.use({ permissions: ['geolocation', 'camera'], geolocation: { latitude: 18.4861, longitude: -69.9312 } });

test('the signed copy carries the lender’s seal and its time-stamp; the analyst tells it from a modified copy', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  // The titular's journey (as in signing.spec.ts): verified, approved, signed.
  const { userId, phone } = await openSigningLink(page, APPROVED());
  await verifyIdentity(page);
  await expect(page.getByRole('timer')).toHaveText(JUST_STARTED);
  await expect.poll(() => serverStatus(page, userId), { timeout: 15_000 }).not.toBeNull();
  await expect(page.getByRole('heading', { name: 'Fueron aprobados tus documentos' })).toBeVisible();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(`/SK/${userId}/titular/singning`);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Guardar firma' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Entiendo y acepto los términos del contrato').check();
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Felicidades' })).toBeVisible();

  // The copy of the SMS, once the time-stamp is in: the file whose hash the evidence records.
  const sms = await smsWith(page.request, phone, '/contract?token=');
  const copy = new URL(/(https?:\/\/\S+)/.exec(sms)![1]!);
  const evidence = await stampedEvidence(page.request, userId, copy.searchParams.get('token')!);
  const seal = evidence.seal!;
  expect(seal.development).toBe(true);
  expect(seal.certificate_name.endsWith(DEVELOPMENT_SEAL)).toBe(true);
  const pdfResponse = await page.request.get(`${copy.pathname}${copy.search}`);
  expect(pdfResponse.headers()['content-type']).toBe('application/pdf');
  const bytes = await pdfResponse.body();
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(evidence.signed_sha256);

  // pdfsig (poppler) reads one PAdES signature over the whole file, valid, by the development certificate.
  const file = test.info().outputPath('contrato.pdf');
  await writeFile(file, bytes);
  const { stdout: report } = await promisify(execFile)('pdfsig', ['-nocert', file]);
  expect(report).toContain('Signature Type: ETSI.CAdES.detached');
  expect(report).toContain('Total document signed');
  expect(report).toContain('Signature Validation: Signature is Valid.');
  expect(report).toContain(`Signer Certificate Common Name: ${seal.certificate_name}`);

  // The analyst at a desk: the seal's facts in 'Contrato'.
  const analyst = await staffAtDesk(browser, baseURL!, 'analyst');
  await openApplicationByPhone(analyst.page, phone, /María José Peña/);
  const section = analyst.page.getByRole('region', { name: 'Contrato', exact: true });
  const fact = (term: string) =>
    section
      .locator('dl > div')
      .filter({ has: analyst.page.getByRole('term').filter({ hasText: term }) })
      .getByRole('definition');
  await expect(fact('Sello del otorgante')).toContainText(seal.certificate_name);
  await expect(fact('Sello del otorgante')).toContainText('de prueba');
  await expect(fact('Sello de tiempo (RFC 3161)')).toContainText(/^Agregado: /);
  await expect(fact('Sello de tiempo (RFC 3161)')).toContainText(seal.timestamp.authority!);
  await expect(fact('Sello de tiempo (RFC 3161)')).toContainText('(de prueba, sin validez legal)');
  await expect(fact('Constancia NOM-151')).toHaveText('No aplica (solo México)');
  // Everybody signed: no signing link is offered any more.
  await expect(section.getByText('Todas las partes firmaron: no hace falta enviar enlaces.')).toBeVisible();
  await expect(section.getByText(/^El titular firmó el /)).toBeVisible();
  await expect(section.getByRole('button', { name: /Enviar enlace de firma/ })).toHaveCount(0);
  await expect(fact('Huella firmado (SHA-256)')).toHaveText(evidence.signed_sha256!);

  // "¿Es este documento el que firmamos?": the copy of the SMS is.
  const answer = section.getByRole('status');
  await section
    .getByLabel('Contrato en PDF')
    .setInputFiles({ name: 'contrato.pdf', mimeType: 'application/pdf', buffer: bytes });
  await section.getByRole('button', { name: 'Revisar documento' }).click();
  await expect(answer).toHaveText('contrato.pdf: Sí. Es el contrato que firmamos, con su sello y su sello de tiempo.');
  await expectAccessible(analyst.page);
  if (deskScreenshot()) await screenshot(analyst.page, 'backoffice-contract-seal');

  // One byte changed inside a text the seal covers (a UTF-16 string: still a readable PDF) is not.
  const at = bytes.indexOf('<FEFF0');
  expect(at).toBeGreaterThan(0);
  const modified = Buffer.from(bytes);
  modified[at + 5] = '1'.charCodeAt(0);
  await section
    .getByLabel('Contrato en PDF')
    .setInputFiles({ name: 'modificado.pdf', mimeType: 'application/pdf', buffer: modified });
  await expect(answer).toHaveCount(0);
  await section.getByRole('button', { name: 'Revisar documento' }).click();
  await expect(answer).toHaveText(
    'modificado.pdf: No. Este archivo fue modificado después de sellarse: su sello ya no corresponde a su contenido.',
  );
  if (deskScreenshot()) await screenshot(analyst.page, 'backoffice-contract-seal-modified');
  await analyst.done();
});
