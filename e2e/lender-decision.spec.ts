import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { openApplicationByPhone, staffAtDesk } from './backoffice-desk.js';
import { seedAndProve, uniqueCedula } from './helpers.js';

/**
 * Issue 30, the lender's decision: a shopkeeper whose application waits at PENDING_APPROVAL sees
 * 'Tu solicitud está en revisión' on the download screen, which asks the server every 15 s while in
 * view; an analyst at a desk records the lender's approval (or decline) in 'Decisión del
 * prestamista', and the shopkeeper's screen moves by itself. The product's poll is left as it is:
 * the wait for it is bounded instead.
 */

/** One 15-second poll at most, plus a slow machine's margin. */
const POLL_BOUND = { timeout: 40_000 };

/** A shopkeeper waiting for the lender on the download screen (seeded, then the phone proved through the screens). */
async function waitingShopkeeper(page: Page): Promise<{ phone: string; userId: string }> {
  const shopkeeper = await seedAndProve(page, { nextStep: 'PENDING_APPROVAL', taxId: uniqueCedula() });
  await expect(page).toHaveURL(`/${shopkeeper.phone}/${shopkeeper.userId}/download`);
  await expect(page.getByRole('heading', { name: 'Tu solicitud está en revisión' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Esperando la respuesta…' })).toBeVisible();
  await expect(page.getByText('esta pantalla se actualizará sola')).toBeVisible();
  return shopkeeper;
}

/** The page's questions about where the application stands (the screen's poll), with when each was asked. */
function watchPolls(page: Page, userId: string): number[] {
  const asked: number[] = [];
  page.on('request', (request) => {
    // GET /api/v1/users/:id/SK (the shopkeeper's own application).
    const path = new URL(request.url()).pathname;
    if (request.method() === 'GET' && path === `/api/v1/users/${userId}/SK`) asked.push(Date.now());
  });
  return asked;
}

/** Every answer of the API to the shopkeeper's page, as text (to look for what must never reach it). */
function watchAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/'))
      void response.text().then(
        (text) => bodies.push(text),
        () => undefined,
      );
  });
  return bodies;
}

/** The SMS to this phone (Dominican, +1) whose body has `text`, from the dev outbox. */
async function messagesWith(request: APIRequestContext, phone: string, text: string): Promise<string[]> {
  const res = await request.get(`/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`);
  const { messages } = (await res.json()) as { messages: { body: string }[] };
  return messages.map((message) => message.body).filter((body) => body.includes(text));
}

/** Only one of the two phone runs keeps the desk's screenshot (the same screen at the same size). */
const deskScreenshot = () => test.info().project.metadata.server === 'do';

test('an analyst records the lender’s approval and the shopkeeper’s screen moves on to it', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const { phone, userId } = await waitingShopkeeper(page);
  const polls = watchPolls(page, userId);
  const since = Date.now();
  await expectAccessible(page);
  await screenshot(page, 'lender-download-waiting');

  const analyst = await staffAtDesk(browser, baseURL!, 'analyst');
  await openApplicationByPhone(analyst.page, phone, /María José Peña/);
  const section = analyst.page.getByRole('region', { name: 'Decisión del prestamista' });
  await expect(section).toContainText('Todavía no hay decisión del prestamista.');
  const approve = section.getByRole('form', { name: 'Aprobar' });
  // As people write them: thousands with a comma, a decimal comma in the rate.
  await approve.getByLabel(/^Monto aprobado/).fill('45,000');
  await approve.getByLabel('Plazo (meses)').fill('12');
  await approve.getByLabel('Tasa anual (%)').fill('18,5');
  await approve.getByRole('button', { name: 'Aprobar' }).click();
  await expect(
    analyst.page.getByRole('status').filter({ hasText: 'Aprobación del prestamista registrada' }),
  ).toBeVisible();
  const recorded = section.getByRole('row').filter({ hasText: 'Aprobado' });
  await expect(recorded).toContainText('45,000');
  await expect(recorded).toContainText('12 meses');
  await expect(recorded).toContainText('18.5 %');
  await expect(recorded).toContainText('Ana Analista');
  // Decided: no more decision forms where the application stands now.
  await expect(section.getByRole('form', { name: 'Aprobar' })).toHaveCount(0);
  await expectAccessible(analyst.page);
  if (deskScreenshot()) await screenshot(analyst.page, 'backoffice-lender-approved');
  await analyst.done();

  // The shopkeeper's screen asks within its next 15 seconds and moves on, with the terms.
  await expect(page).toHaveURL(`/${phone}/${userId}/approved`, POLL_BOUND);
  await expect(page.getByRole('heading', { name: '¡Tu crédito fue aprobado!' })).toBeVisible();
  await expect(page.getByText('Felicidades, ya revisamos tu solicitud. Tu crédito es de:')).toBeVisible();
  await expect(page.locator('.amount')).toHaveText('$45,000 DOP');
  const terms = page.getByRole('definition');
  await expect(page.getByRole('term')).toHaveText(['Plazo', 'Tasa de interés anual']);
  await expect(terms).toHaveText(['12 meses', '18.5%']);
  await expect(page.getByText(/^Te enviamos un SMS al .* con el enlace para firmar tu contrato/)).toBeVisible();
  // A poll every 15 s or so, not a busy loop (coming back to the page may ask once more, 5 s apart at least).
  expect(polls.length).toBeGreaterThan(0);
  expect(polls.length).toBeLessThanOrEqual(Math.ceil((Date.now() - since) / 5_000) + 1);
  await expectAccessible(page);
  await screenshot(page, 'lender-approved');

  // The approval sent the signing invitation to the shopkeeper's phone.
  await expect.poll(() => messagesWith(page.request, phone, 'send-contract-sign'), { timeout: 15_000 }).toHaveLength(1);
});

test('an analyst records the lender’s decline and the shopkeeper reads a kind word, never the lender’s reason', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const answers = watchAnswers(page);
  const { phone, userId } = await waitingShopkeeper(page);

  const reason = 'Ingresos no verificables con los estados de cuenta presentados';
  const analyst = await staffAtDesk(browser, baseURL!, 'analyst');
  await openApplicationByPhone(analyst.page, phone, /María José Peña/);
  const section = analyst.page.getByRole('region', { name: 'Decisión del prestamista' });
  const decline = section.getByRole('form', { name: 'Rechazar' });
  await decline.getByLabel('Motivo del rechazo').fill(reason);
  await decline.getByRole('button', { name: 'Rechazar' }).click();
  await expect(
    analyst.page.getByRole('status').filter({ hasText: 'Rechazo del prestamista registrado' }),
  ).toBeVisible();
  await expect(section.getByRole('row').filter({ hasText: 'Rechazado' })).toContainText(reason);
  await expectAccessible(analyst.page);
  if (deskScreenshot()) await screenshot(analyst.page, 'backoffice-lender-declined');
  await analyst.done();

  await expect(page).toHaveURL(`/${phone}/${userId}/declined`, POLL_BOUND);
  await expect(page.getByRole('heading', { name: 'Lo sentimos' })).toBeVisible();
  await expect(page.getByText('Esta vez no pudimos aprobar tu crédito.', { exact: false })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Hablar con un asesor' })).toBeVisible();
  // The lender's reason is its own: not on the screen, and not in anything the API told the page.
  await expect(page.getByText(reason)).toHaveCount(0);
  expect(await page.locator('body').innerText()).not.toContain('Ingresos no verificables');
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.filter((body) => body.includes('Ingresos no verificables'))).toEqual([]);
  await expectAccessible(page);
  await screenshot(page, 'lender-declined');
  // A decline sends no signing link.
  expect(await messagesWith(page.request, phone, 'send-contract-sign')).toEqual([]);
});
