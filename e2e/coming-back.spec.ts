import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import {
  enterCode,
  fillAboutYou,
  latestCode,
  proveWithSms,
  saveTaxId,
  smsCount,
  toTaxIdStep,
  uniqueCedula,
  uniquePhone,
} from './helpers.js';

// Issue 27, items 2 and 4: an expired session on a step, the back button, a second tab and a saved
// step link. Each ends where the application stands, with what the shopkeeper typed.

const path = (page: Page) => new URL(page.url()).pathname;

/** A new shopkeeper from the landing to the address search ('Sobre ti' and the cédula saved): the phone and the step's path. */
async function atAddressSearch(page: Page): Promise<{ phone: string; stepPath: string }> {
  const phone = uniquePhone();
  await toTaxIdStep(page, phone);
  await saveTaxId(page, uniqueCedula());
  await expect(page).toHaveURL(/\/search-address$/);
  return { phone, stepPath: path(page) };
}

/** Holds a screen's code (its lazy chunk) until released, as a slow network would. */
function holdChunk(page: Page, name: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const installed = page.route(new RegExp(`/assets/${name}-[^/]+\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  return { installed, release };
}

test.describe('an expired or invalid session on a step (issue 27 item 2)', () => {
  test("the modal's button asks for a new code for the known number; back on the step, what was typed is there", async ({
    page,
  }) => {
    const phone = uniquePhone();
    await toTaxIdStep(page, phone);
    const stepPath = path(page);
    const taxId = page.getByRole('textbox', { name: 'Cédula / RNC' });
    await taxId.fill(uniqueCedula());
    const typed = await taxId.inputValue();
    await page.getByRole('checkbox', { name: 'Mi cédula es correcta' }).check();

    // Twelve hours went by (or the server's key changed): the stored token is refused.
    await page.evaluate(() => sessionStorage.setItem('clientToken', 'Bearer eyJleHAiOjF9.vencido'));
    const sent = await smsCount(page.request, phone);
    await page.getByRole('button', { name: 'Continuar' }).click();
    const dialog = page.getByRole('dialog', { name: '¡Parece que hubo un error!' });
    await expect(dialog).toContainText('Tu sesión no es válida o ya venció. Vuelve a verificar tu número.');
    await screenshot(page, 'session-expired');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Continuar' }).click();

    // Straight to a new code for the number: no loop on the step.
    await expect(page).toHaveURL(`/home/${phone}/code`);
    await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    await expect.poll(() => smsCount(page.request, phone)).toBe(sent + 1);
    await enterCode(page, await latestCode(page.request, phone));

    await expect(page).toHaveURL(stepPath);
    await expect(taxId).toHaveValue(typed);
    await expect(page.getByRole('checkbox', { name: 'Mi cédula es correcta' })).toBeChecked();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/search-address$/);
  });
});

test.describe('the back button (issue 27 item 4)', () => {
  test('back pressed while the next screen is still loading: the step knows it was saved and takes a correction', async ({
    page,
  }) => {
    // On 3G (or a busy phone) the next screen's code can still be on its way when back is pressed:
    // the step is then still on show, and must not save itself a second time as a first save.
    const holds = {
      'additional-data': holdChunk(page, 'additional-data'),
      'search-address': holdChunk(page, 'search-address'),
    };
    await Promise.all(Object.values(holds).map((hold) => hold.installed));
    const firstSaves: string[] = [];
    page.on('response', (res) => {
      const { pathname } = new URL(res.url());
      if (res.request().method() === 'POST' && /^\/api\/v\d\/users(\/[^/]+\/[^/]+\/tax_info)?$/.test(pathname))
        firstSaves.push(`${pathname.endsWith('tax_info') ? 'tax_info' : 'users'} ${res.status()}`);
    });
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(`/${phone}/about-you`);
    await fillAboutYou(page);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/additional-data$/);
    await expect.poll(() => firstSaves).toEqual(['users 201']);
    await page.goBack();
    await expect(page).toHaveURL(`/${phone}/about-you`);
    holds['additional-data'].release();

    // 'Sobre ti' (its own check of the number's application).
    await expect(page.getByLabel('Nombres')).toHaveValue('María José');
    await page.getByLabel('Nombres').fill('María Josefa');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/additional-data$/);

    // The cédula (the step guard every later step shares).
    const taxId = uniqueCedula();
    await saveTaxId(page, taxId);
    await expect(page).toHaveURL(/\/search-address$/);
    await expect.poll(() => firstSaves).toEqual(['users 201', 'tax_info 200']);
    await page.goBack();
    await expect(page).toHaveURL(/\/additional-data$/);
    holds['search-address'].release();
    await expect(page.getByText('Ya guardamos estos datos', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/search-address$/);
    await expect(page.getByRole('button', { name: 'No encontre mi domicilio' })).toBeVisible();

    // Both corrections kept, each saved once.
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(`/${phone}/about-you`);
    await expect(page.getByLabel('Nombres')).toHaveValue('María Josefa');
    expect(firstSaves).toEqual(['users 201', 'tax_info 200']);
  });

  test('back shows the step before with its data; saved steps are corrected until the business is saved, then shown read-only', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const phone = uniquePhone();
    const taxId = uniqueCedula();
    await toTaxIdStep(page, phone);

    // Back: 'Sobre ti' with what was saved, still editable; the change is saved.
    await page.goBack();
    await expect(page).toHaveURL(`/${phone}/about-you`);
    await expect(page.getByLabel('Nombres')).toHaveValue('María José');
    await expect(page.getByLabel('Año')).toHaveValue('1985');
    await expect(page.getByLabel('Estado civil')).toHaveValue('MARRIED');
    await expect(page.getByLabel('Nombres')).toBeEditable();
    await screenshot(page, 'back-about-you');
    await expectAccessible(page);
    await page.getByLabel('Nombres').fill('María Josefa');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/additional-data$/);

    await saveTaxId(page, taxId);
    await expect(page).toHaveURL(/\/search-address$/);

    // Two steps back: the cédula, then the corrected name, as the server has them.
    await page.goBack();
    await expect(page).toHaveURL(/\/additional-data$/);
    await expect(page.getByRole('textbox', { name: 'Cédula / RNC' })).toHaveValue(
      `${taxId.slice(0, 3)}-${taxId.slice(3, 10)}-${taxId.slice(10)}`,
    );
    await expect(page.getByRole('checkbox', { name: 'Mi cédula es correcta' })).toBeChecked();
    await screenshot(page, 'back-additional-data');
    await page.goBack();
    await expect(page).toHaveURL(`/${phone}/about-you`);
    await expect(page.getByLabel('Nombres')).toHaveValue('María Josefa');

    // Forward again with the browser, then on through the address.
    await page.goForward();
    await expect(page).toHaveURL(/\/additional-data$/);
    await page.goForward();
    await expect(page).toHaveURL(/\/search-address$/);
    await page.getByRole('button', { name: 'No encontre mi domicilio' }).click();
    await expect(page).toHaveURL(/\/about-living\?/);
    await page.getByLabel('Provincia').selectOption({ label: 'Distrito Nacional' });
    await page.getByLabel('Municipio').selectOption({ label: 'Santo Domingo de Guzmán' });
    await page.getByLabel('Sector').selectOption({ label: 'Ensanche Naco' });
    await page.getByLabel('Calle').fill('Calle Respaldo Los Robles');
    await page.getByLabel('Número exterior').fill('12');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/more-about$/);

    await page.goBack();
    await expect(page).toHaveURL(/\/about-living/);
    await expect(page.getByLabel('Calle')).toHaveValue('Calle Respaldo Los Robles');
    await expect(page.getByLabel('Sector').locator('option:checked')).toHaveText('Ensanche Naco');
    await page.getByLabel('Número exterior').fill('14');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/more-about$/);

    await page.getByLabel('Nombre del negocio').fill('Colmado La Esquina');
    await page.getByLabel('¿Cuánto tiempo tiene tu negocio?').selectOption('3');
    await page.getByLabel('Giro del negocio').selectOption({ index: 1 });
    await page.getByLabel('Ventas promedio por semana').selectOption({ index: 3 });
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/send-nip$/);
    const nipPath = path(page);

    // The business was judged by the credit policy: back shows it as sent, not editable.
    await page.goBack();
    await expect(page).toHaveURL(/\/more-about$/);
    await expect(page.getByLabel('Nombre del negocio')).toHaveValue('Colmado La Esquina');
    await expect(page.getByLabel('Nombre del negocio')).not.toBeEditable();
    await expect(page.getByText('Ya enviamos estos datos', { exact: false })).toBeVisible();
    await screenshot(page, 'back-more-about-read-only');
    await expectAccessible(page);
    await page.goBack();
    await expect(page).toHaveURL(/\/about-living/);
    await expect(page.getByLabel('Número exterior')).toHaveValue('14');
    await expect(page.getByLabel('Número exterior')).not.toBeEditable();
    // Continuar on a step that can no longer change goes straight to where the application stands.
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(new RegExp(`${nipPath}(\\?already-sent=true)?$`));
    await expect(page.getByRole('heading', { name: 'NIP de Consulta' })).toBeVisible();
  });
});

test.describe('a second tab and a saved step link (issue 27 item 4)', () => {
  test('a second tab of the same person continues where the application stands, without a new proof', async ({
    page,
    context,
  }) => {
    const { phone, stepPath } = await atAddressSearch(page);
    const sent = await smsCount(page.request, phone);

    const second = await context.newPage();
    await second.goto(stepPath);
    await expect(second.getByRole('heading', { name: '¿Dónde está tu negocio?' })).toBeVisible();
    await expect(second.getByRole('dialog')).toHaveCount(0);
    await screenshot(second, 'second-tab');
    // An earlier step's link in the second tab shows that step with its data.
    await second.goto(`/${phone}/about-you`);
    await expect(second.getByLabel('Nombres')).toHaveValue('María José');
    expect(await smsCount(page.request, phone)).toBe(sent);
    await second.close();
  });

  test('a saved step link with no tab open proves the number in the link, then shows where the application stands', async ({
    page,
    browser,
    baseURL,
  }) => {
    const { phone, stepPath } = await atAddressSearch(page);

    const other = await browser.newContext({ baseURL, viewport: page.viewportSize()!, locale: 'es-DO' });
    const later = await other.newPage();
    const errors: string[] = [];
    later.on('pageerror', (error) => errors.push(error.message));
    await later.goto(stepPath);
    // The number in the link, to confirm: opening a link sends no message by itself (another site
    // could link here), the person does.
    await expect(later).toHaveURL(new RegExp(`/home/${phone}/verify$`));
    await expect(later.getByRole('heading', { name: 'Confirma tu número' })).toBeVisible();
    await expect(later.locator('strong.nowrap')).toContainText(phone.slice(6));
    await screenshot(later, 'saved-link-confirm');
    await later.getByRole('button', { name: 'Continuar' }).click();
    // The proof of the number in the link (the default vendor: a message from the phone), no error modal.
    await expect(later).toHaveURL(new RegExp(`/home/${phone}\\?sessionUuid=[0-9a-f-]{36}$`));
    await expect(later.getByRole('dialog')).toHaveCount(0);
    await expect(
      later.getByText('Tu registro está guardado. Para seguir, vuelve a confirmar tu número.'),
    ).toBeVisible();
    await screenshot(later, 'saved-link');
    const message = (await later.locator('.message-text').textContent())!;
    const res = await later.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${phone}`, text: message } });
    expect(res.ok()).toBe(true);
    await expect(later).toHaveURL(stepPath, { timeout: 10_000 });
    await expect(later.getByRole('heading', { name: '¿Dónde está tu negocio?' })).toBeVisible();
    expect(errors).toEqual([]);
    await other.close();
  });
});
