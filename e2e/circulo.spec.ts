import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { seedUser, smsWith } from './helpers.js';
import { STAFF_ACCOUNTS } from './staff-accounts.js';
import { enrolledStaff, logInWithCode } from './staff-login.js';

/**
 * Mexico with Círculo de Crédito as the bureau (issue 29), against its stand-in started by the
 * global setup as a newcomer starts it (`npm run bureau:circulo-fake`): the product signs each
 * query, the stand-in checks it and answers signed reports of its test persons (persons.ts there).
 */

const mexicanPhone = () => `55${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
/** An RFC of the stand-in's person `datePart` (its birth-date part), with letters nobody else in this run has. */
const rfcOf = (datePart: string) => {
  const letter = () => String.fromCharCode(65 + Math.floor(Math.random() * 26));
  return `${letter()}${letter()}${letter()}${letter()}${datePart}${letter()}${letter()}${Math.floor(Math.random() * 10)}`;
};

/** A shopkeeper registered up to the consent PIN, proven by SMS, who types the PIN. */
async function throughThePin(page: Page, datePart: string): Promise<{ phone: string; userId: string }> {
  const phone = mexicanPhone();
  const userId = await seedUser(page.request, { phone, nextStep: 'ACCOUNT_NIP', taxId: rfcOf(datePart) });
  await page.goto('/home?otp-vendor=sms');
  await page.getByLabel('Teléfono celular').fill(phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
  const code = /\b(\d{6})\b/.exec(await smsWith(page.request, phone, 'código', '+52'))![1]!;
  await page.getByRole('textbox', { name: /dígito 1 de 6/ }).fill(code);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'NIP de Consulta' })).toBeVisible();
  const pin = /\b(\d{4})\b/.exec(await smsWith(page.request, phone, 'NIP', '+52'))![1]!;
  await page.getByRole('textbox', { name: /NIP de consulta, dígito 1 de 4/ }).fill(pin);
  await page.getByRole('button', { name: 'Continuar' }).click();
  return { phone, userId };
}

async function analystPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'es-MX' });
  const page = await context.newPage();
  await page.goto('/backoffice');
  await expect(page).toHaveURL(/\/backoffice\/login/);
  await logInWithCode(page, STAFF_ACCOUNTS.analyst, enrolledStaff('mx-circulo', 'analyst').secret);
  return page;
}

test('a shopkeeper with a good history is pre-approved; the analyst sees the report and the folioCDC', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { userId } = await throughThePin(page, '800101');
  await expect(page.getByRole('heading', { name: 'Felicidades' })).toBeVisible();
  await expect(page.getByText('MXN', { exact: false }).first()).toBeVisible();
  await screenshot(page, 'circulo-approved');
  await expectAccessible(page);

  const analyst = await analystPage(browser, baseURL!);
  await analyst.goto(`/backoffice/applications/${userId}`);
  const bureau = analyst.getByRole('region', { name: 'Buró y decisión' });
  await expect(bureau.getByText('720').first()).toBeVisible();
  // The NIP audit is sent by the worker after the decision: its folioCDC shows once Círculo acknowledged it.
  await expect(async () => {
    await analyst.reload();
    await expect(analyst.getByText(/\d+ \(Acusada\)/).first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await screenshot(analyst, 'circulo-backoffice-report');
  await analyst.context().close();
});

test('a shopkeeper with an open account past due over 60 days is rejected', async ({ page }) => {
  test.setTimeout(60_000);
  await throughThePin(page, '800102');
  await expect(page).toHaveURL(/\/rejected$/);
  await expect(page.getByRole('heading', { name: 'Lo sentimos' })).toBeVisible();
  await screenshot(page, 'circulo-rejected');
});
