import { cedulaCheckDigit } from '@provee/domain';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { fillAboutYou, latestCode, latestNip, uniquePhone } from './helpers.js';

/**
 * Issue 9: one round trip per step. Between the tap on Continuar and the next screen being usable
 * (its heading visible, then 300 ms more), the only API call is the save, and no JS chunk loads:
 * the step screen warmed the next screen's chunk and catalogues while the user was typing.
 */
function recorder(page: Page) {
  const seen: Request[] = [];
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  page.on('request', (request) => {
    seen.push(request);
    inFlight.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /** Waits until nothing has been in flight for 300 ms (the prefetch of the next screen included). */
    async settle() {
      await expect
        .poll(() => (Date.now() - lastChange >= 300 ? [...inFlight].map((request) => request.url()) : ['busy']), {
          timeout: 10_000,
          intervals: [100],
        })
        .toEqual([]);
    },
    /**
     * Taps Continuar, waits for `heading` plus 300 ms, answers the API calls made meanwhile. The
     * next screen's chunk (`/assets/{chunk}-{hash}.js`) must have loaded before the tap (warmed),
     * and not after it. (After arrival that screen warms the one after it: those chunks may load.)
     */
    async step(heading: string, chunk: string) {
      await this.settle();
      const from = seen.length;
      const isChunk = (request: Request) =>
        new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`).test(new URL(request.url()).pathname);
      expect(seen.some(isChunk), `${chunk} warmed before the tap`).toBe(true);
      await page.getByRole('button', { name: 'Continuar' }).click();
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      await page.waitForTimeout(300);
      const after = seen.slice(from);
      expect(
        after.filter(isChunk).map((request) => request.url()),
        `${chunk} loaded after the tap`,
      ).toEqual([]);
      return after
        .filter((request) => new URL(request.url()).pathname.startsWith('/api/'))
        .map((request) => `${request.method()} ${new URL(request.url()).pathname}`);
    },
  };
}

const uuid = '[0-9a-f-]{36}';

test('each registration step costs one API call (the save) from the tap to the next screen, and no chunk', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const record = recorder(page);
  const phone = uniquePhone();
  await page.goto('/home?otp-vendor=sms');
  await page.getByLabel('Teléfono celular').fill(phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
  await page.getByRole('textbox', { name: /dígito 1 de 6/ }).fill(await latestCode(page.request, phone));

  // 0. Code → Sobre ti: the confirmation only; its answer says the number is new (no lookup).
  let api = await record.step('Sobre ti', 'about-you');
  expect(api).toEqual(['PUT /api/v1/users/code']);

  // 1. Sobre ti → cédula: the registration call only.
  await fillAboutYou(page);
  api = await record.step('Confirma que tu cédula sea correcta', 'additional-data');
  expect(api).toEqual(['POST /api/v2/users']);

  // 2. Cédula → address search: the tax id save only.
  const ten = String(Math.floor(Math.random() * 1e10)).padStart(10, '0');
  await page.getByRole('textbox', { name: 'Cédula / RNC' }).fill(`${ten}${cedulaCheckDigit(ten)}`);
  await page.getByRole('checkbox', { name: 'Mi cédula es correcta' }).check();
  api = await record.step('¿Dónde está tu negocio?', 'search-address');
  expect(api).toEqual([expect.stringMatching(new RegExp(`^POST /api/v1/users/${uuid}/SK/tax_info$`))]);

  // 3. Search → address form: nothing to save; the chosen place's details and its province,
  // municipality and sectors were warmed on choosing, so Continuar only navigates.
  await page.getByRole('combobox', { name: 'Dirección del negocio' }).fill('Naco');
  await page.getByRole('option', { name: 'Ensanche Naco, Santo Domingo de Guzmán, Distrito Nacional' }).click();
  api = await record.step('Domicilio de tu negocio', 'about-living');
  expect(api).toEqual([]);
  await expect(page.getByLabel('Sector').locator('option:checked')).toHaveText('Ensanche Naco');

  // 4. Address form → Negocio: the address save only (business types and sales ranges warmed).
  await page.getByLabel('Calle').fill('Calle Respaldo Los Robles');
  await page.getByLabel('Número exterior').fill('12');
  api = await record.step('Negocio', 'more-about');
  expect(api).toEqual([expect.stringMatching(new RegExp(`^POST /api/v1/users/${uuid}/SK/businesses/address$`))]);
  await expect(page.getByLabel('Giro del negocio').locator('option')).not.toHaveCount(1);

  // 5. Negocio → NIP: the business save, then the PIN the NIP screen sends by SMS on arrival
  // (SPEC §2.3 item 6: an action of that screen, not a read); the consent text was warmed.
  await page.getByLabel('Nombre del negocio').fill('Colmado La Esquina');
  await page.getByLabel('¿Cuánto tiempo tiene tu negocio?').selectOption('3');
  await page.getByLabel('Giro del negocio').selectOption({ index: 1 });
  await page.getByLabel('Ventas promedio por semana').selectOption({ index: 4 });
  api = await record.step('NIP de Consulta', 'send-nip');
  expect(api).toEqual([
    expect.stringMatching(new RegExp(`^POST /api/v1/users/${uuid}/SK/businesses$`)),
    expect.stringMatching(new RegExp(`^POST /api/v1/users/${uuid}/SK/nip$`)),
  ]);
  await expect(page).toHaveURL(new RegExp(`/${phone}/${uuid}/send-nip$`));
  await expect(page.locator('.consent-text')).toBeVisible();

  // 6. NIP → Felicidades: the PIN confirmation only; its answer carries the pre-approved amount.
  await page
    .getByRole('textbox', { name: /NIP de consulta, dígito 1 de 4/ })
    .fill(await latestNip(page.request, phone));
  api = await record.step('Felicidades', 'congratulations');
  expect(api).toEqual([expect.stringMatching(new RegExp(`^PUT /api/v1/users/${uuid}/SK/nip$`))]);
  await expect(page.locator('.amount')).toHaveText(/10,000 DOP$/);
});
