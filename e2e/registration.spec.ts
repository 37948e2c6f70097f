import { cedulaCheckDigit } from '@provee/domain';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { fillAboutYou, expectStepper, proveWithSms, saveTaxId, toTaxIdStep, uniquePhone } from './helpers.js';

function cedula(valid = true): string {
  const ten = String(Math.floor(Math.random() * 1e10)).padStart(10, '0');
  const digit = valid ? cedulaCheckDigit(ten) : (cedulaCheckDigit(ten) + 1) % 10;
  return `${ten}${digit}`;
}

const error = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** Continuar is refused with `message` under a field; the screen is photographed and checked for accessibility. */
async function expectContinueRefused(page: Page, message: string, shot: string): Promise<void> {
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(error(page, message)).toBeVisible();
  await screenshot(page, shot);
  await expectAccessible(page);
}

test.describe('shopkeeper registration', () => {
  test('a new shopkeeper goes from /home to send-nip through the five screens', async ({ page }) => {
    test.setTimeout(60_000);
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`));

    // 1. Sobre ti — a wrong name shows the SPEC message; a reload keeps what was typed.
    await expect(page.getByRole('heading', { name: 'Sobre ti' })).toBeVisible();
    await expectStepper(page, 'Paso 1/6 Registro', 1, 6);
    await fillAboutYou(page);
    await page.getByLabel('Nombres').fill('Ju4n');
    await expectContinueRefused(
      page,
      '* El formato del nombre es inválido, solo se aceptan letras y espacios',
      'about-you-error',
    );
    await page.getByLabel('Nombres').fill('  María   José ');
    await page.getByLabel('Apellido paterno').focus();
    await expect(page.getByLabel('Nombres')).toHaveValue('María José');
    await page.reload();
    await expect(page.getByLabel('Nombres')).toHaveValue('María José');
    await expect(page.getByLabel('Año')).toHaveValue('1985');
    await expect(page.getByLabel('Estado civil')).toHaveValue('MARRIED');
    await page.getByRole('button', { name: 'Continuar' }).click();

    // 2. Cédula — a wrong check digit is refused under the field.
    await expect(page).toHaveURL(/\/additional-data$/);
    await expect(page.getByRole('heading', { name: 'Confirma que tu cédula sea correcta' })).toBeVisible();
    await expectStepper(page, 'Paso 2/6 Registro', 2, 6);
    const taxId = page.getByRole('textbox', { name: 'Cédula / RNC' });
    const confirm = page.getByRole('checkbox', { name: 'Mi cédula es correcta' });
    // Left empty: SPEC §5's message with the country's label, not a silently disabled button.
    await taxId.focus();
    await taxId.blur();
    await expect(error(page, '* Ingresa la Cédula / RNC !')).toBeVisible();
    await screenshot(page, 'additional-data-empty');
    // A letter is kept (upper-cased) and named, not dropped without a word.
    await taxId.fill('001-12345a6');
    await expect(taxId).toHaveValue('001-12345A6');
    await expect(error(page, '* La cédula o RNC solo lleva números.')).toBeVisible();
    await expect(confirm).toBeDisabled();
    await screenshot(page, 'additional-data-letter');
    await taxId.fill(cedula(false));
    await expect(taxId).toHaveValue(/^\d{3}-\d{7}-\d$/);
    await expect(page.getByText('13 de 13 caracteres')).toBeVisible();
    await confirm.check();
    await expectContinueRefused(page, '* La cédula no es válida, revísala.', 'additional-data-error');
    await taxId.fill(cedula());
    await expect(confirm).not.toBeChecked();
    await confirm.check();
    await page.getByRole('button', { name: 'Continuar' }).click();

    // 3. Address search over the catalogue a fresh start ships (nothing imported).
    await expect(page).toHaveURL(/\/search-address$/);
    await expectStepper(page, 'Paso 3/6 Registro', 3, 6);
    const search = page.getByRole('combobox', { name: 'Dirección del negocio' });
    await search.fill('Naco');
    const option = page.getByRole('option', { name: 'Ensanche Naco, Santo Domingo de Guzmán, Distrito Nacional' });
    await expect(option).toBeVisible();
    await screenshot(page, 'search-address');
    await expectAccessible(page);
    await option.click();
    await page.getByRole('button', { name: 'Continuar' }).click();

    // 4. Address form, prefilled; the exterior number is required.
    await expect(page).toHaveURL(/\/about-living\?/);
    await expectStepper(page, 'Paso 4/6 Registro', 4, 6);
    await expect(page.getByLabel('Provincia')).toHaveValue(/\d+/);
    await expect(page.getByLabel('Sector').locator('option:checked')).toHaveText('Ensanche Naco');
    await expect(page.getByLabel('Municipio').locator('option:checked')).toHaveText('Santo Domingo de Guzmán');
    await page.getByLabel('Calle').fill('Calle Respaldo Los Robles');
    await expectContinueRefused(page, '* Ingresa el número exterior !', 'about-living-error');
    await page.getByLabel('Número exterior').fill('12');
    await page.getByRole('button', { name: 'Continuar' }).click();

    // 5. Negocio — the business type is required.
    await expect(page).toHaveURL(/\/more-about$/);
    await expectStepper(page, 'Paso 5/6 Registro', 5, 6);
    await page.getByLabel('Nombre del negocio').fill('Colmado La Esquina');
    await page.getByLabel('¿Cuánto tiempo tiene tu negocio?').selectOption('3');
    await page.getByLabel('Ventas promedio por semana').selectOption({ index: 3 });
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(error(page, '* Selecciona el giro de tu negocio !')).toBeVisible();
    await page.getByLabel('Giro del negocio').selectOption('Otros');
    await expectContinueRefused(page, '* Escribe a qué se dedica tu negocio !', 'more-about-error');
    await page.getByLabel('¿A qué se dedica tu negocio?').fill('Venta de frutas');
    await page.getByRole('button', { name: 'Continuar' }).click();

    await expect(page).toHaveURL(new RegExp(`/${phone}/[0-9a-f-]{36}/send-nip$`));
    await expectStepper(page, 'Paso 6/6 Registro', 6, 6);
  });

  test('a refused call keeps what was typed', async ({ page }) => {
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`));
    await fillAboutYou(page);
    await page.route('**/api/v2/users', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'RATE_LIMITED',
          message: 'too many',
          readable_message: 'Hiciste demasiados intentos. Espera un momento e intenta de nuevo.',
        }),
      }),
    );
    await page.getByRole('button', { name: 'Continuar' }).click();
    const dialog = page.getByRole('dialog', { name: '¡Parece que hubo un error!' });
    await expect(dialog).toContainText('Hiciste demasiados intentos. Espera un momento e intenta de nuevo.');
    await dialog.getByRole('button', { name: 'Entendido' }).click();
    await expect(page.getByLabel('Nombres')).toHaveValue('María José');
    await expect(page.getByLabel('Estado civil')).toHaveValue('MARRIED');
    await page.unroute('**/api/v2/users');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/additional-data$/);
  });

  test("'Mi sector no aparece': the shopkeeper types the sector, a reload keeps it, the address is accepted", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await toTaxIdStep(page, uniquePhone());
    await saveTaxId(page, cedula());
    await page.getByRole('button', { name: 'No encontre mi domicilio' }).click();

    await expect(page).toHaveURL(/\/about-living\?/);
    await page.getByLabel('Provincia').selectOption({ label: 'Santo Domingo' });
    await page.getByLabel('Municipio').selectOption({ label: 'Santo Domingo Este' });
    // The whole list ships with the product: the select is not empty.
    await expect(page.getByLabel('Sector').locator('option', { hasText: 'Los Mina Norte' }).first()).toBeAttached();
    await page.getByRole('button', { name: 'Mi sector no aparece' }).click();
    const sector = page.getByRole('textbox', { name: 'Sector' });
    await expect(sector).toBeFocused();
    await page.getByLabel('Calle').fill('Calle 8');
    await page.getByLabel('Número exterior').fill('14');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(error(page, '* Ingresa el sector !')).toBeVisible();
    await sector.fill('Los Pinos & Co');
    await expectContinueRefused(page, '* El sector no puede contener el carácter &.', 'about-living-typed-sector');

    await sector.fill('Residencial Los Pinos del Este');
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Sector' })).toHaveValue('Residencial Los Pinos del Este');
    await expect(page.getByLabel('Municipio').locator('option:checked')).toHaveText('Santo Domingo Este');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/more-about$/);
  });

  test('an address outside the served municipalities ends on /rejected-location', async ({ page }) => {
    await toTaxIdStep(page, uniquePhone());
    await saveTaxId(page, cedula());
    await page.getByRole('combobox').fill('los heroes bonao');
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Calle').fill('Calle Duarte');
    await page.getByLabel('Número exterior').fill('5');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/rejected-location$/);
    await expect(page.getByRole('heading', { name: 'Aún no llegamos a tu zona' })).toBeVisible();
    await screenshot(page, 'rejected-location');
    await expectAccessible(page);
    await expect(page.getByRole('button', { name: 'Finalizar' })).toBeVisible();
  });
});
