import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { expectStepper, smsWith } from './helpers.js';

/**
 * The Mexican market end to end (issue 8, item 8), against the server the global setup starts
 * with COUNTRY=mx (projects mx-412x823 and mx-360x640 in playwright.config.ts).
 */

/** A Mexico City mobile number nobody else in this run uses. */
const mexicanPhone = () => `55${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** The newest SMS to this Mexican number (+52) that contains `text` (the PIN's SMS leaves after its screen shows). */
const latestSms = (request: APIRequestContext, phone: string, text: string) => smsWith(request, phone, text, '+52');

const error = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function look(page: Page, name: string) {
  await screenshot(page, `mx-${name}`);
  await expectAccessible(page);
}

test('Mexico: from /home to the download, with +52, the RFC, the zip code, the tiendita and MXN', async ({ page }) => {
  test.setTimeout(90_000);
  const phone = mexicanPhone();
  // A birth date of its own, so the RFC (names + date) is one application per run and project;
  // never 1-5 January 1990, the bureau simulator's test identities.
  const year = 1960 + Math.floor(Math.random() * 40);
  const day = 6 + Math.floor(Math.random() * 22);

  // /home: the Mexican prefix, then the SMS code.
  await page.goto('/home?otp-vendor=sms');
  await expect(page.getByLabel('Prefijo')).toHaveValue('+52');
  await page.getByLabel('Teléfono celular').fill(phone);
  await look(page, 'home');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
  // Mexico City numbers group 2-4-4: 55 1234 5678.
  await expect(page.getByText(`+52 ${phone.slice(0, 2)} ${phone.slice(2, 6)} ${phone.slice(6)}`)).toBeVisible();
  const code = /\b(\d{6})\b/.exec(await latestSms(page.request, phone, 'código'))![1]!;
  await page.getByRole('textbox', { name: /dígito 1 de 6/ }).fill(code);
  await look(page, 'code');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Sobre ti.
  await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`));
  await expectStepper(page, 'Paso 1/6 Registro', 1, 6);
  await page.getByLabel('Nombres').fill('Juan Carlos');
  await page.getByLabel('Apellido paterno').fill('Hernández');
  await page.getByLabel('Apellido materno (opcional)').fill('López');
  await page.getByLabel('Mes').selectOption({ label: 'Septiembre' });
  await page.getByLabel('Día').selectOption(String(day));
  await page.getByLabel('Año').selectOption(String(year));
  await page
    .getByLabel('¿Cuánto tiempo llevas viviendo en tu domicilio actual?')
    .selectOption({ label: '4 o más años' });
  await page.getByLabel('Estado civil').selectOption({ label: 'Casado(a)' });
  await look(page, 'about-you');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // RFC pre-filled from the names and the birth date: HELJ + yymmdd + homoclave.
  await expect(page).toHaveURL(/\/additional-data$/);
  await expect(page.getByRole('heading', { name: 'Confirma que tu RFC sea correcto' })).toBeVisible();
  await expectStepper(page, 'Paso 2/6 Registro', 2, 6);
  const dateDigits = `${String(year).slice(2)}09${String(day).padStart(2, '0')}`;
  await expect(page.getByRole('textbox', { name: 'RFC' })).toHaveValue(new RegExp(`^HELJ${dateDigits}[A-Z0-9]{3}$`));
  await expect(page.getByText('13 de 13 caracteres')).toBeVisible();
  await expect(page.getByRole('link', { name: '¿No conoces tu RFC? Consúltalo aquí' })).toHaveAttribute(
    'href',
    /sat\.gob\.mx/,
  );
  await page.getByRole('checkbox', { name: 'Mi RFC es correcto' }).check();
  await look(page, 'rfc');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Address: not found in the search, so the zip code fills Estado, Municipio and Colonia.
  await expect(page).toHaveURL(/\/search-address$/);
  await expectStepper(page, 'Paso 3/6 Registro', 3, 6);
  await look(page, 'search-address');
  await page.getByRole('button', { name: 'No encontre mi domicilio' }).click();
  await expect(page).toHaveURL(/\/about-living\?/);
  const zip = page.getByLabel('Código postal');
  await zip.fill('5500');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(error(page, '* El código postal tiene 5 dígitos.')).toBeVisible();
  await expect(error(page, '* Ingresa el estado !')).toBeVisible();
  await expect(error(page, '* Selecciona la colonia !')).toBeVisible();
  await look(page, 'about-living-error');
  // The zip message goes as soon as the zip changes; the served municipality's zip fills the rest.
  await zip.fill('55000');
  await expect(error(page, '* El código postal tiene 5 dígitos.')).toHaveCount(0);
  await expect(page.getByLabel('Estado').locator('option:checked')).toHaveText('México');
  await expect(page.getByLabel('Municipio').locator('option:checked')).toHaveText('Ecatepec de Morelos');
  await expect(page.getByLabel('Colonia').locator('option:checked')).toHaveText('San Cristóbal Centro');
  // Only the zip code's colonias: Ecatepec's other colonia has another zip code.
  await expect(page.getByLabel('Colonia').locator('option:not([value=""])')).toHaveText(['San Cristóbal Centro']);
  await expectStepper(page, 'Paso 4/6 Registro', 4, 6);
  await page.getByLabel('Calle').fill('Av. Insurgentes');
  await page.getByLabel('Número exterior').fill('12');
  await look(page, 'about-living');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Negocio: a tiendita, with a name as shop signs write it.
  await expect(page).toHaveURL(/\/more-about$/);
  await expectStepper(page, 'Paso 5/6 Registro', 5, 6);
  await expect(page.getByText('Ahora cuéntanos de tu tiendita.')).toBeVisible();
  await page.getByLabel('Nombre del negocio').fill('Tiendita “Doña Lupe” #2');
  await page.getByLabel('¿Cuánto tiempo tiene tu negocio?').selectOption('3');
  await page.getByLabel('Giro del negocio').selectOption({ index: 1 });
  await page.getByLabel('Ventas promedio por semana').selectOption({ index: 3 });
  await look(page, 'more-about');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // NIP de Consulta, the registration's sixth and last screen.
  await expect(page).toHaveURL(/\/send-nip$/);
  await expect(page.getByRole('heading', { name: 'NIP de Consulta' })).toBeVisible();
  await expectStepper(page, 'Paso 6/6 Registro', 6, 6);
  const nip = /\b(\d{4})\b/.exec(await latestSms(page.request, phone, 'NIP'))![1]!;
  await page.getByRole('textbox', { name: /NIP de consulta, dígito 1 de 4/ }).fill(nip);
  await look(page, 'send-nip');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Felicidades in pesos.
  await expect(page.getByRole('heading', { name: 'Felicidades' })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('.amount')).toHaveText(/^\$10,000 MXN$/);
  await look(page, 'congratulations');
  await page.getByRole('button', { name: 'Crear contraseña' }).click();

  await page.getByLabel('Contraseña de 6 dígitos').fill('583920');
  await page.getByLabel('Confirma tu contraseña').fill('583920');
  await look(page, 'create-password');
  await page.getByRole('button', { name: 'Continuar' }).click();

  await expect(page).toHaveURL(/\/advisor-contact$/);
  await expectStepper(page, 'Paso 2/3 Evaluación', 1);
  await look(page, 'advisor-contact');
  await page.getByRole('button', { name: 'Estoy con un asesor' }).click();

  await expect(page).toHaveURL(/\/download$/);
  await expect(page.getByText('Sigue tu crédito, surte tu tiendita y paga desde la app.')).toBeVisible();
  await look(page, 'download');
});
