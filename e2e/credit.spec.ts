import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { cedulaFrom, enterConsultationPin, expectStepper, seedAndProve, uniqueCedula } from './helpers.js';

/** Bureau-simulator identities (apps/api/src/providers/bureau/simulator.ts); any other is clean. */
const DELINQUENT = cedulaFrom('9990000002');
const SLOW = cedulaFrom('9990000004');
const FAILING = cedulaFrom('9990000005');

/** A shopkeeper who finished the five registration screens proves the phone and lands on send-nip. */
async function atSendNip(page: Page, taxId: string): Promise<{ phone: string; userId: string }> {
  const { phone, userId } = await seedAndProve(page, { nextStep: 'ACCOUNT_NIP', taxId });
  await expect(page).toHaveURL(`/${phone}/${userId}/send-nip`);
  await expect(page.getByRole('heading', { name: 'NIP de Consulta' })).toBeVisible();
  return { phone, userId };
}

test.describe('bureau consent and decision', () => {
  test('approval: PIN → Felicidades → password → advisor → download', async ({ page }) => {
    const { phone, userId } = await atSendNip(page, uniqueCedula());
    await expect(page.getByText(/Por este medio autorizo expresamente a Provee/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeDisabled();
    // The PIN is the registration's sixth and last screen (SPEC §2.3 item 6).
    await expectStepper(page, 'Paso 6/6 Registro', 6, 6);
    await screenshot(page, 'send-nip');
    await expectAccessible(page);
    await enterConsultationPin(page, phone);

    await expect(page).toHaveURL(`/${phone}/${userId}/congratulations`);
    await expect(page.getByRole('heading', { name: 'Felicidades' })).toBeVisible();
    await expect(page.locator('.amount')).toHaveText(/10,000 DOP$/);
    await screenshot(page, 'congratulations');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Crear contraseña' }).click();

    await expect(page).toHaveURL(`/${phone}/${userId}/create-password`);
    // Too short: an instruction, not a statement.
    await page.getByLabel('Contraseña de 6 dígitos').fill('5839');
    await page.getByLabel('Confirma tu contraseña').fill('5839');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('alert')).toHaveText('* Escribe los 6 números de tu contraseña.');
    await screenshot(page, 'create-password-short');
    await page.getByLabel('Contraseña de 6 dígitos').fill('123456');
    await page.getByLabel('Confirma tu contraseña').fill('123456');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      '* Elige una contraseña menos obvia: no repitas un número ni uses números seguidos.',
    );
    await page.getByLabel('Contraseña de 6 dígitos').fill('583920');
    await page.getByLabel('Confirma tu contraseña').fill('583920');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).first().click();
    await expect(page.getByLabel('Contraseña de 6 dígitos')).toHaveAttribute('type', 'text');
    await screenshot(page, 'create-password');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Continuar' }).click();

    await expect(page).toHaveURL(`/${phone}/${userId}/advisor-contact`);
    await expect(page.getByRole('heading', { name: 'Tu préstamo fue pre aprobado' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continuar por llamada' })).toHaveAttribute('href', 'tel:+18095550101');
    await expectStepper(page, 'Paso 2/3 Evaluación', 1);
    await expect(page.getByRole('link', { name: 'Continuar por WhatsApp' })).toHaveAttribute(
      'href',
      /text=Mi%20pr%C3%A9stamo%20fue%20pre%20aprobado$/,
    );
    await screenshot(page, 'advisor-contact');
    await expectAccessible(page);
    const recorded = page.waitForResponse((response) => response.url().endsWith('/advisor-events'));
    await page.getByRole('button', { name: 'Estoy con un asesor' }).click();
    expect((await recorded).status()).toBe(201);

    await expect(page).toHaveURL(`/${phone}/${userId}/download`);
    await expect(page.getByRole('link', { name: 'Descargar la app' })).toHaveAttribute(
      'href',
      /^https:\/\/play\.google\.com\//,
    );
    await screenshot(page, 'download');
    await expectAccessible(page);
  });

  test('rejection: a delinquent report ends on /rejected', async ({ page }) => {
    const { phone } = await atSendNip(page, DELINQUENT);
    await enterConsultationPin(page, phone);
    await expect(page).toHaveURL(/\/rejected$/);
    await expect(page.getByRole('heading', { name: 'Lo sentimos' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Contactar a soporte' })).toHaveAttribute(
      'href',
      /^https:\/\/wa\.me\/18095550100\?text=/,
    );
    await screenshot(page, 'rejected');
    await expectAccessible(page);
  });

  test('slow bureau: /waiting until the decision lands, then Felicidades', async ({ page }) => {
    test.setTimeout(60_000);
    const { phone, userId } = await atSendNip(page, SLOW);
    await enterConsultationPin(page, phone);
    // The PIN's answer waits for the bureau up to BUREAU_SYNC_WAIT_MS (4 s) before saying WAITING.
    await expect(page).toHaveURL(`/${userId}/waiting`, { timeout: 15_000 });
    await expect(page.getByText('Espera un momento estamos trabajando en su registro')).toBeVisible();
    await screenshot(page, 'waiting');
    await expectAccessible(page);
    await expect(page).toHaveURL(`/${phone}/${userId}/congratulations`, { timeout: 30_000 });
  });

  test('failing bureau: /waiting gives up after 12 checks, and the retry records the decision later', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    // The browser's clock is ours: 12 checks 5 s apart take a moment, while the server (real
    // time) is still retrying the bureau.
    await page.clock.install();
    const { phone, userId } = await atSendNip(page, FAILING);
    await enterConsultationPin(page, phone);
    await expect(page).toHaveURL(`/${userId}/waiting`, { timeout: 15_000 });
    const checks: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith(`/api/v1/users/${userId}/SK`)) checks.push(response.url());
    });
    for (let i = 0; i < 12 && !page.url().endsWith('/something-happened'); i++) {
      await page.clock.runFor(5_000);
      // Looked at every 50 ms (the default steps grow to a second): the 12 checks must end before the
      // server's retries (BUREAU_RETRY_BASE_MS: 1, 2, 4 s here) get the decision; on a loaded machine
      // they took longer.
      await expect.poll(() => checks.length, { intervals: [50] }).toBeGreaterThanOrEqual(i + 1);
    }
    await expect(page).toHaveURL(/\/something-happened$/);
    expect(checks).toHaveLength(12);
    await expect(page.getByRole('heading', { name: 'Algo pasó' })).toBeVisible();
    await screenshot(page, 'something-happened');
    await expectAccessible(page);

    const token = await page.evaluate(() => sessionStorage.getItem('clientToken'));
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/api/v1/users/${userId}/SK`, { headers: { authorization: token! } })).json())
            .data,
        { timeout: 20_000 },
      )
      .toMatchObject({
        next_step: 'PASSWORD',
        status: 'IN_PROGRESS',
        pre_approval: { amount: 10_000, currency: 'DOP' },
      });
  });
});

test('advisor welcome: the built-in video (from this server, nothing loaded before play), the call promise and the download button', async ({
  page,
}) => {
  const { phone, userId } = await seedAndProve(page, { nextStep: 'INVENTORY' });
  await expect(page).toHaveURL(`/${phone}/${userId}/download`);
  const videoRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'media') videoRequests.push(request.url());
  });
  await page.goto(`/${phone}/${userId}/advisor-welcome`);
  await expect(page.getByText('Paso 2/3 Evaluación')).toBeVisible();
  await expect(
    page.getByText('Un asesor te llamará en menos de 5 minutos desde el número +1 809 555 0101.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Descargar la app' })).toBeVisible();
  // SPEC §2.3 12's embedded video: a fresh install has one, served by this server (the CSP's
  // media-src 'self'); its poster fills its box, with no black band and no space held empty.
  const video = page.getByLabel('Video de bienvenida');
  await expect(video).toBeVisible();
  const shown = await video.evaluate(async (element: HTMLVideoElement) => {
    const poster = new Image();
    poster.src = element.poster;
    await poster.decode();
    const box = element.getBoundingClientRect();
    return {
      src: element.currentSrc || element.querySelector('source')?.src || element.src,
      poster: element.poster,
      boxRatio: box.width / box.height,
      posterRatio: poster.naturalWidth / poster.naturalHeight,
      width: box.width,
    };
  });
  const origin = new URL(page.url()).origin;
  expect(shown.poster.startsWith(`${origin}/`)).toBe(true);
  expect(shown.src.startsWith(`${origin}/`)).toBe(true);
  expect(Math.abs(shown.boxRatio - shown.posterRatio)).toBeLessThan(0.02);
  expect(shown.width).toBeGreaterThan(300);
  // On 3G nothing of the video is fetched until the person plays it.
  expect(videoRequests).toEqual([]);
  await expectAccessible(page);
  // The player shows a loading circle for a moment after the page's load, even with nothing to load.
  await page.waitForTimeout(1_000);
  await screenshot(page, 'advisor-welcome');
  // It plays.
  await video.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.2);
  expect(videoRequests.length).toBeGreaterThan(0);
  expect(videoRequests.every((url) => url.startsWith(`${origin}/`))).toBe(true);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(5);
});
