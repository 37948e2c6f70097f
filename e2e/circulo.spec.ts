import type { Browser, Page } from '@playwright/test';
import { generateRfc } from '@provee/domain';
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

/**
 * A member of the lender's staff signed in to the back office. Each test signs in as its own role:
 * two workers giving the same account's code in the same 30 s would have one refused as reused.
 */
async function staffPage(browser: Browser, baseURL: string, role: 'analyst' | 'admin'): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'es-MX' });
  const page = await context.newPage();
  await page.goto('/backoffice');
  await expect(page).toHaveURL(/\/backoffice\/login/);
  await logInWithCode(page, STAFF_ACCOUNTS[role], enrolledStaff('mx-circulo', role).secret);
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

  const analyst = await staffPage(browser, baseURL!, 'analyst');
  await analyst.goto(`/backoffice/applications/${userId}`);
  const bureau = analyst.getByRole('region', { name: 'Buró y decisión' });
  await expect(bureau.getByText('720').first()).toBeVisible();
  // The NIP audit is sent by the worker after the decision: its folioCDC shows once Círculo acknowledged it.
  // Each reload gets a few seconds to draw the detail: on a loaded machine its answer came 1.5–2.5 s
  // after the page's load event, and a 1 s wait failed every try (CI, 2026-12-01).
  await expect(async () => {
    await analyst.reload();
    await expect(analyst.getByText(/\d+ \(Acusada\)/).first()).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
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

test('an admin names a guarantor with their home address; the guarantor accepts from their own phone and is asked as Círculo files them', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const userId = await seedUser(page.request, {
    phone: mexicanPhone(),
    nextStep: 'INVENTORY',
    taxId: rfcOf('800101'),
  });
  const partner = mexicanPhone();
  const analyst = await staffPage(browser, baseURL!, 'admin');
  await analyst.goto(`/backoffice/applications/${userId}`);
  const form = analyst.getByRole('form', { name: 'Registrar aval' });
  const fields: [string, string][] = [
    ['Nombre(s)', 'Ramón'],
    ['Apellido paterno', 'Pérez'],
    ['Apellido materno', 'Luna'],
    ['Celular', partner],
    // The stand-in's good person: the RFC's date part is 800101 (and the birth date sent).
    [
      'Identificación fiscal',
      generateRfc({ name: 'Ramón', lastname: 'Pérez', maternalLastname: 'Luna', dob: '1980-01-01' }),
    ],
    ['Domicilio: código postal', '50000'],
    ['Domicilio: estado', 'México'],
    ['Domicilio: municipio', 'Toluca'],
    ['Domicilio: colonia', 'Toluca Centro'],
    ['Domicilio: calle', 'Avenida Hidalgo'],
    ['Domicilio: número', '301'],
  ];
  for (const [label, value] of fields) await form.getByLabel(label).fill(value);
  await screenshot(analyst, 'circulo-backoffice-guarantor-form');
  await form.getByRole('button', { name: 'Registrar aval' }).click();
  const guarantors = analyst.getByRole('region', { name: 'Avales' });
  await expect(guarantors.getByRole('rowheader', { name: 'Ramón Pérez Luna' })).toBeVisible();

  // The guarantor, on their own phone: the invitation link, 'Aceptar Consulta', the message sent.
  const sms = await smsWith(page.request, partner, 'verify-aval-phone', '+52');
  const link = new URL(/(https?:\/\/\S+)/.exec(sms)![1]!);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Hola, Ramón Pérez Luna' })).toBeVisible();
  await page.getByRole('button', { name: 'Aceptar Consulta' }).click();
  const message = (await page
    .getByText(/Verificar .+: [A-Z0-9]{8}/)
    .first()
    .textContent())!.trim();
  const sent = await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+52${partner}`, text: message } });
  expect(sent.ok()).toBe(true);
  await expect(page.getByRole('heading', { name: 'Excelente' })).toBeVisible({ timeout: 12_000 });
  await screenshot(page, 'circulo-guarantor-validated');

  // The back office: the guarantor approved on Círculo's report, and its NIP audit acknowledged.
  await expect(async () => {
    await analyst.reload();
    await expect(guarantors.getByRole('row', { name: /Ramón Pérez Luna/ })).toContainText('Aprobado', {
      timeout: 5_000,
    });
    await expect(analyst.getByText(/\d+ \(Acusada\)/).first()).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await screenshot(analyst, 'circulo-backoffice-guarantor');
  await analyst.context().close();
});
