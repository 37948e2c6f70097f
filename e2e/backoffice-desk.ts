import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { STAFF_ACCOUNTS } from './staff-accounts.js';
import { enrolledStaff, giveAuthenticatorCode, logInWithCode } from './staff-login.js';

/**
 * The back office as staff use it at a desk (1280×800), beside a test's own page: the login as
 * people make it and the application found by its phone. A page of a second context is not the
 * fixtures' page, so `staffAtDesk` watches it the same way (console errors, failed requests,
 * requests to other hosts, 5xx answers) and `done` fails the test on any.
 */

export type StaffRole = keyof typeof STAFF_ACCOUNTS;

/** The password, then the authenticator app's code for an analyst or an admin (enrolled by the global setup). */
export async function logInToBackoffice(page: Page, role: StaffRole): Promise<void> {
  await page.goto('/backoffice');
  await expect(page).toHaveURL(/\/backoffice\/login/);
  const account = STAFF_ACCOUNTS[role];
  if (role === 'advisor') return logInWithCode(page, account, null);
  // logInWithCode's steps, with a longer wait for the second step: the password's hash takes its
  // time on a busy machine (the button stays disabled meanwhile).
  await page.getByLabel('Correo electrónico').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible({ timeout: 20_000 });
  await giveAuthenticatorCode(page, enrolledStaff(String(test.info().project.metadata.server), role).secret);
  await expect(page.getByText(account.name).first()).toBeVisible({ timeout: 15_000 });
}

/** What the fixtures' page fails on, for a page the test opened itself. */
export function watchProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    )
      problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${reason}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith(`blob:${origin}`))
      problems.push(`request to another host: ${url}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`server error ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/** A staff member logged in at a desk, in a context of their own; `done` closes it and fails on what went wrong there. */
export async function staffAtDesk(
  browser: Browser,
  baseURL: string,
  role: StaffRole,
): Promise<{ page: Page; done: () => Promise<void> }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    isMobile: false,
    hasTouch: false,
    locale: 'es-DO',
  });
  const page = await context.newPage();
  const problems = watchProblems(page, new URL(baseURL).origin);
  await logInToBackoffice(page, role);
  return {
    page,
    done: async () => {
      await context.close();
      expect(problems, `the ${role}'s page: ${problems.join('\n')}`).toEqual([]);
    },
  };
}

/** 'Solicitudes': the search by phone (as the lender's staff type it), then the application by its person's name. */
export async function openApplicationByPhone(page: Page, phone: string, name: RegExp | string): Promise<void> {
  await page.getByRole('link', { name: 'Solicitudes', exact: true }).click();
  await page.getByLabel(/^Buscar por teléfono/).fill(`(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`);
  await page.getByRole('button', { name: 'Buscar' }).click();
  // The row of this phone: the list from before the search may still be on screen for a moment.
  await page.getByRole('row').filter({ hasText: phone }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name: 'Decisión del prestamista' })).toBeVisible();
}
