import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures.js';
import { countLayoutShifts, proveWithSms, uniquePhone } from './helpers.js';

/**
 * Issue 14, docs/decisions/019: about-you and the signing link's screen are sent with the screen
 * inside #root (rendered by the server at start), so a reload or an SMS link paints before the JS
 * arrives; its fields stay disabled until the app replaces the preview with the same screen.
 */

/** Holds the app's JS until `release()`: the shopkeeper on 3G, looking at the preview. */
async function holdScripts(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    asked++;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

const fontsReady = (page: Page) =>
  page.waitForFunction(() => document.fonts.check('600 16px Poppins') && document.fonts.check('16px Poppins'));

test.describe('previewed screens', () => {
  test('about-you paints from the HTML, fields disabled; the app replaces it with the same screen and nothing moves', async ({
    page,
  }) => {
    // A reload mid-registration: the tab holds its proven number (a tab without a session proves
    // it first, issue 27).
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(`/${phone}/about-you`);
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    const shifts = await countLayoutShifts(page);
    const scripts = await holdScripts(page);
    await page.goto(`/${phone}/about-you`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sobre ti');
    await expect(page.getByLabel('Nombres')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeDisabled();
    await expect.poll(scripts.asked, 'the JS is asked for once the preview has painted').toBeGreaterThan(0);
    await fontsReady(page);
    const preview = await page.screenshot();
    await screenshot(page, 'about-you-preview');

    scripts.release();
    await expect(page.getByLabel('Nombres')).toBeEnabled();
    await expect(page.locator('.screen-preview')).toHaveCount(0);
    await expect(page.locator('#root')).not.toHaveAttribute('data-preview');
    await expect(page).toHaveTitle(/Sobre ti/);
    expect(await page.screenshot(), 'the app shows exactly what the preview showed').toEqual(preview);
    expect(await shifts()).toBeLessThanOrEqual(0.02);
    expect(problems).toEqual([]);

    // And it is the app: it takes what is typed and keeps it through a reload.
    await page.getByLabel('Nombres').fill('Ana María');
    await page.reload();
    await expect(page.getByLabel('Nombres')).toHaveValue('Ana María');
  });

  test('the signing link paints its screen from the HTML, then loads the link', async ({ page }) => {
    const scripts = await holdScripts(page);
    await page.goto('/send-contract-sign?token=not-a-real-link&user_type_id=1&user_id=2', { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Firma de contrato');
    await expect(page.getByText('Lee con atención tu contrato de crédito.', { exact: false })).toBeVisible();
    await expect.poll(scripts.asked).toBeGreaterThan(0);
    scripts.release();
    // The app takes over: the link is checked (this one is refused) and the screen says so.
    await expect(page.locator('.screen-preview')).toHaveCount(0);
    await expect(page.getByRole('dialog')).toBeVisible();
  });
});
