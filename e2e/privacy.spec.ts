import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { staffAtDesk } from './backoffice-desk.js';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { proveWithSms, uniquePhone } from './helpers.js';
import { recordSecret } from './hygiene-ledger.js';

/**
 * Issue 31, the applicant's rights: a shopkeeper who proved their phone opens "Mis datos",
 * downloads what is kept (JSON and PDF) and asks for cancellation; an admin at a desk finds the
 * request with its legal deadline and erases; the same phone proving itself again starts a new
 * application. The person's names are unique to this run and go to the hygiene ledger as values
 * that must appear nowhere (logs, database dumps) once erased.
 */

/** Letters only (the names' rule), unlikely to appear anywhere by chance. */
function uniqueWord(): string {
  const letters = Array.from({ length: 9 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  return letters.charAt(0).toUpperCase() + letters.slice(1);
}

/** 'Sobre ti' with the given names, saved: the application exists and its id is in the address. */
async function registerAs(page: Page, phone: string, name: string, lastname: string): Promise<string> {
  await proveWithSms(page, phone);
  await expect(page).toHaveURL(`/${phone}/about-you`);
  await page.getByLabel('Nombres').fill(name);
  await page.getByLabel('Apellido paterno').fill(lastname);
  await page.getByLabel('Mes').selectOption({ label: 'Febrero' });
  await page.getByLabel('Día').selectOption('28');
  await page.getByLabel('Año').selectOption('1985');
  await page
    .getByLabel('¿Cuánto tiempo llevas viviendo en tu domicilio actual?')
    .selectOption({ label: '4 o más años' });
  await page.getByLabel('Estado civil').selectOption({ label: 'Casado(a)' });
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/additional-data$/);
  return new URL(page.url()).pathname.split('/')[2]!;
}

const saved = async (download: Download) => readFile((await download.path())!);

/** Only one of the two phone runs keeps the desk's screenshots (the same screen at the same size). */
const deskScreenshot = () => test.info().project.name === 'do-360x640';

test('an applicant downloads their data and asks for cancellation; an admin erases; the phone starts anew', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const phone = uniquePhone();
  const [name, lastname] = [uniqueWord(), uniqueWord()];
  recordSecret('erasedPerson', name, 'privacy.spec: erased applicant');
  recordSecret('erasedPerson', lastname, 'privacy.spec: erased applicant');
  const userId = await registerAs(page, phone, name, lastname);

  // "Mis datos" is under every screen of the application.
  await page.getByRole('link', { name: 'Mis datos' }).click();
  await expect(page).toHaveURL(`/${phone}/${userId}/mis-datos`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mis datos' })).toBeVisible();
  await expect(page.getByText(name, { exact: true })).toBeVisible();

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar en JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toBe('mis-datos.json');
  const exported = (await saved(json)).toString('utf8');
  expect(exported).toContain(name);
  expect(exported).toContain(lastname);
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar en PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe('mis-datos.pdf');
  expect((await saved(pdf)).subarray(0, 5).toString()).toBe('%PDF-');

  await page.getByLabel('¿Qué quieres pedir?').selectOption({ label: 'Borrar mis datos' });
  await page.getByLabel('Cuéntanos el motivo').fill('Ya no quiero el crédito; borren mis datos, por favor.');
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  const receipt = page.getByRole('status').filter({ hasText: 'Recibimos tu solicitud con el folio' });
  await expect(receipt).toBeVisible();
  const folio = /ARCO-\d{4}-\d{6,}/.exec((await receipt.textContent()) ?? '')![0];
  const requests = page.getByRole('list', { name: 'Mis solicitudes' });
  await expect(requests).toContainText(folio);
  await expect(requests).toContainText('Recibida');
  await expectAccessible(page);
  await screenshot(page, 'privacy-my-data');

  // The admin finds it in the queue with its deadline, opens it, sees the person and erases.
  const admin = await staffAtDesk(browser, baseURL!, 'admin');
  await admin.page.getByRole('link', { name: 'Privacidad' }).click();
  const row = admin.page.getByRole('row').filter({ hasText: folio });
  await expect(row).toContainText('Cancelación');
  await expect(row).toContainText(/\d{1,2} [a-z]{3}\.? \d{4}/);
  if (deskScreenshot()) await screenshot(admin.page, 'backoffice-privacy-queue');
  await row.getByRole('link', { name: folio }).click();
  await expect(admin.page.getByRole('heading', { level: 1, name: `Solicitud ${folio}` })).toBeVisible();
  await expect(admin.page.getByText(name, { exact: true })).toBeVisible();
  await expectAccessible(admin.page);
  if (deskScreenshot()) await screenshot(admin.page, 'backoffice-privacy-request');
  admin.page.once('dialog', (dialog) => void dialog.accept());
  await admin.page.getByRole('button', { name: 'Eliminar los datos' }).click();
  await expect(admin.page.getByText('Atendida')).toBeVisible();
  // The person's data as it is now: their names went with the erasure.
  await expect(admin.page.getByRole('region', { name: 'Datos de la persona' })).not.toContainText(name);
  await expect(admin.page.getByRole('region', { name: 'Datos de la persona' })).not.toContainText(lastname);
  if (deskScreenshot()) await screenshot(admin.page, 'backoffice-privacy-request-erased');
  await admin.done();

  // The applicant's next login: the same phone finds nothing, a new application starts.
  await page.evaluate(() => sessionStorage.clear());
  await proveWithSms(page, phone);
  await expect(page).toHaveURL(`/${phone}/about-you`);
  await expect(page.getByLabel('Nombres')).toHaveValue('');
});
