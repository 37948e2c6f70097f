import { getCountry } from '@provee/domain';
import type { Locator, Page } from '@playwright/test';
import { staffAtDesk, watchProblems } from './backoffice-desk.js';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { proveWithSms, seedUser, uniqueCedula, uniquePhone } from './helpers.js';
import { shopkeeperThroughPublicApi } from './public-api-journey.js';
import { enrolledStaff, giveAuthenticatorCode } from './staff-login.js';

/**
 * Issue 33, the policy lab, on the 'staff' server (its own database: the versions published here
 * judge no other spec's applicants; a 20-second step-up). An applicant with a one-year-old business
 * is approved under version 1; an analyst drafts a version that asks for two years, backtests it
 * over today and sees that applicant flip; the analyst may not publish it, an admin publishes it;
 * the next one-year-old business is refused at the business step; the admin goes back to version 1
 * in one click, and the next one passes.
 */

/** 'Confirma que eres tú' first when the last second factor is older than the server's step-up time (20 s here). */
async function confirmIfAsked(page: Page, secret: string, done: Locator) {
  const dialog = page.getByRole('dialog', { name: 'Confirma que eres tú' });
  await expect(dialog.or(done).first()).toBeVisible({ timeout: 15_000 });
  if (await dialog.isVisible()) await giveAuthenticatorCode(page, secret, dialog);
  await expect(done).toBeVisible({ timeout: 15_000 });
}

/** Today in the country's time zone, as the backtest's date fields take it (YYYY-MM-DD). */
const today = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: getCountry('do').timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

const versionRow = (page: Page, label: string) =>
  page
    .getByRole('table', { name: 'Versiones de la política' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: label, exact: true }) });

test('an analyst drafts a stricter business age and backtests it, an admin publishes it, then goes back to version 1', async ({
  page: shopkeeper,
  browser,
  baseURL,
}) => {
  test.setTimeout(360_000);
  // An applicant whose business is one year old, approved under version 1 (its minimum is 1 year).
  const approvedId = await shopkeeperThroughPublicApi(shopkeeper.request, {
    phone: uniquePhone(),
    taxId: uniqueCedula(),
    businessAge: 1,
  });

  // The analyst opens 'Política de crédito' and begins a draft from the live version.
  const analyst = await staffAtDesk(browser, baseURL!, 'analyst');
  const desk = analyst.page;
  await desk.getByRole('link', { name: 'Política de crédito', exact: true }).click();
  const liveRow = desk
    .getByRole('table', { name: 'Versiones de la política' })
    .getByRole('row')
    .filter({ hasText: 'Vigente' });
  await expect(liveRow).toHaveCount(1);
  const firstLabel = (await liveRow.getByRole('link').textContent())!;
  await desk.getByRole('button', { name: 'Nuevo borrador' }).click();
  const title = desk.getByRole('heading', { level: 1, name: /^Versión v\d+$/ });
  await expect(title).toBeVisible();
  const draftLabel = (await title.textContent())!.replace('Versión ', '');

  // 'Antigüedad del negocio ≥' from 1 to 2, with the reason the decisions will record.
  const rules = desk.getByRole('form', { name: 'Reglas' });
  const businessAge = rules.getByRole('textbox', { name: 'Antigüedad del negocio ≥', exact: true });
  await expect(businessAge).toHaveValue('1');
  await businessAge.fill('2');
  await rules
    .getByRole('textbox', { name: 'Motivo: Antigüedad del negocio ≥', exact: true })
    .fill('El negocio tiene menos de dos años.');
  await rules.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(desk.getByText(`Borrador ${draftLabel} guardado`)).toBeVisible();
  await expect(desk.getByRole('region', { name: `Cambios frente a la versión vigente (${firstLabel})` })).toContainText(
    'Antigüedad del negocio ≥: 1 → 2',
  );
  await expect(businessAge).toHaveValue('2');
  // Four eyes: an analyst does not publish (the screen says who does).
  await expect(desk.getByRole('region', { name: 'Publicación' })).toContainText(
    'Publicar una versión le corresponde a una persona administradora.',
  );
  await expect(desk.getByRole('button', { name: /^Publicar/ })).toHaveCount(0);
  await expectAccessible(desk);
  await screenshot(desk, 'policy-editor');

  // The backtest over today: the applicant approved under version 1 is refused by the draft.
  const backtest = desk.getByRole('region', { name: 'Prueba con decisiones pasadas' });
  await backtest.getByLabel('Desde', { exact: true }).fill(today());
  await backtest.getByLabel('Hasta', { exact: true }).fill(today());
  await backtest.getByRole('button', { name: 'Probar con decisiones pasadas' }).click();
  const result = backtest.getByRole('region', { name: /^Resultado:/ });
  await expect(result).toBeVisible({ timeout: 15_000 });
  const approvedToRejected = result.locator('dt', { hasText: 'Aprobadas → rechazadas' }).locator('+ dd');
  expect(Number(await approvedToRejected.textContent())).toBeGreaterThanOrEqual(1);
  const flipped = result.getByRole('link', { name: `Solicitud ${approvedId}` });
  await expect(flipped).toBeVisible();
  await expect(flipped.locator('xpath=ancestor::tr')).toContainText('Aprobada → Rechazada');
  await expect(flipped.locator('xpath=ancestor::tr')).toContainText('Antigüedad del negocio ≥');
  await expectAccessible(desk);
  await screenshot(desk, 'policy-backtest');
  await analyst.done();

  // An admin (not the author) publishes it as the live version, giving the second factor again if asked.
  const admin = await staffAtDesk(browser, baseURL!, 'admin');
  const office = admin.page;
  const adminSecret = enrolledStaff('staff', 'admin').secret;
  await office.getByRole('link', { name: 'Política de crédito', exact: true }).click();
  await office.getByRole('link', { name: draftLabel, exact: true }).click();
  await expect(office.getByRole('heading', { level: 1, name: `Versión ${draftLabel}` })).toBeVisible();
  await expect(
    office.getByRole('form', { name: 'Reglas' }).getByRole('button', { name: 'Guardar borrador' }),
  ).toHaveCount(0);
  // Someone else's draft: read only, what it changes and the publishing buttons.
  await expect(
    office
      .getByRole('form', { name: 'Reglas' })
      .getByRole('textbox', { name: 'Antigüedad del negocio ≥', exact: true }),
  ).toBeDisabled();
  await expectAccessible(office);
  await screenshot(office, 'policy-review');
  await office
    .getByRole('region', { name: 'Publicación' })
    .getByRole('button', { name: 'Publicar como vigente' })
    .click();
  const publish = office.getByRole('dialog', { name: `¿Publicar ${draftLabel} como vigente?` });
  await publish.getByRole('button', { name: 'Publicar como vigente' }).click();
  await confirmIfAsked(office, adminSecret, office.getByText(`${draftLabel} publicada como vigente`));

  // The next shopkeeper with a one-year-old business is refused at the business step.
  const refused = await businessStep(shopkeeper, '1');
  expect(refused).toEqual({ status: 422, code: 'NOT_ELIGIBLE_BUSINESS_AGE' });
  await expect(shopkeeper).toHaveURL(/\/rejected$/);
  await expect(
    shopkeeper.getByText('Por ahora tu negocio no cumple con los requisitos para el crédito.'),
  ).toBeVisible();

  // The list: the draft is the live version now, version 1 one of the published ones.
  await office.getByRole('link', { name: 'Política de crédito', exact: true }).click();
  await expect(versionRow(office, draftLabel)).toContainText('Vigente');
  await expect(versionRow(office, draftLabel)).toContainText('Adela Admin');
  await expect(versionRow(office, firstLabel)).toContainText('Publicada');
  await expectAccessible(office);
  await screenshot(office, 'policy-versions');

  // Rollback in one click (and a confirmation): version 1 decides again. Past the step-up time
  // (20 s on this server), the second factor is asked again over the confirmation, then it goes on.
  await office.getByRole('link', { name: firstLabel, exact: true }).click();
  const rollback = office
    .getByRole('region', { name: 'Publicación' })
    .getByRole('button', { name: 'Volver a esta versión' });
  await expect(rollback).toBeVisible();
  await office.waitForTimeout(21_000);
  await rollback.click();
  const activate = office.getByRole('dialog', { name: `¿Hacer vigente ${firstLabel}?` });
  await activate.getByRole('button', { name: 'Volver a esta versión' }).click();
  const stepUp = office.getByRole('dialog', { name: 'Confirma que eres tú' });
  await expect(stepUp).toBeVisible();
  await giveAuthenticatorCode(office, adminSecret, stepUp);
  await expect(office.getByText(`${firstLabel} es la versión vigente`)).toBeVisible();
  await expect(activate).toHaveCount(0);
  await office.getByRole('link', { name: 'Política de crédito', exact: true }).click();
  await expect(versionRow(office, firstLabel)).toContainText('Vigente');
  await expect(versionRow(office, draftLabel)).toContainText('Publicada');
  await admin.done();

  // A further shopkeeper with a one-year-old business passes the business step (a tab of their own).
  const next = await shopkeeper.context().newPage();
  const problems = watchProblems(next, new URL(baseURL!).origin);
  const passed = await businessStep(next, '1');
  expect(passed.status).toBeLessThan(300);
  await expect(next).toHaveURL(/\/send-nip$/);
  expect(problems).toEqual([]);
});

/**
 * A new shopkeeper (seeded at the business step, the phone proved on the landing) declares a
 * business of `years` on the 'Negocio' screen and presses Continuar; answers what the step said.
 */
async function businessStep(page: Page, years: string): Promise<{ status: number; code?: string }> {
  const phone = uniquePhone();
  await seedUser(page.request, { phone, nextStep: 'ABOUT_STORE' });
  await proveWithSms(page, phone);
  await expect(page).toHaveURL(/\/more-about$/);
  await page.getByLabel('Nombre del negocio').fill('Colmado Los Primos');
  await page.getByLabel('¿Cuánto tiempo tiene tu negocio?').selectOption(years);
  await page.getByLabel('Giro del negocio').selectOption({ index: 1 });
  await page.getByLabel('Ventas promedio por semana').selectOption({ index: 2 });
  const answer = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /\/SK\/businesses$/.test(new URL(response.url()).pathname),
  );
  await page.getByRole('button', { name: 'Continuar' }).click();
  const response = await answer;
  const body = (await response.json()) as { code?: string };
  return response.ok() ? { status: response.status() } : { status: response.status(), code: body.code };
}
