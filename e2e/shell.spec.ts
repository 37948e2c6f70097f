import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { proveWithSms, uniquePhone } from './helpers.js';

test.describe('web shell', () => {
  test('the landing page renders, validates the phone and links the privacy notice', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Surte tu negocio con Provee');
    await expect(page).toHaveTitle('Inicio · Provee');
    const prefix = page.getByLabel('Prefijo', { exact: true });
    await expect(prefix).toHaveValue('+1');
    await expect(prefix.locator('option')).toHaveCount(1);

    const phone = page.getByLabel('Teléfono celular');
    const continuar = page.getByRole('button', { name: 'Continuar' });
    await expect(continuar).toBeDisabled();
    await phone.fill('809555');
    await expect(continuar).toBeDisabled();
    await expect(page.getByRole('img', { name: 'Número válido' })).toHaveCount(0);
    await phone.fill('809555123a');
    await expect(phone).toHaveValue('809555123');
    await expect(continuar).toBeDisabled();
    await phone.press('End');
    await phone.pressSequentially('4');
    await expect(phone).toHaveValue('8095551234');
    // Room for what people paste ('+1 (809) 555-1234'); the field keeps the 10 national digits.
    await expect(phone).toHaveAttribute('maxlength', '20');
    await expect(continuar).toBeEnabled();
    await expect(page.getByRole('img', { name: 'Número válido' })).toBeVisible();

    const privacy = page.getByRole('link', { name: 'Aviso de Privacidad' });
    await expect(privacy).toHaveAttribute('href', 'https://provee.example/aviso-de-privacidad');
    await expect(privacy).toHaveAttribute('target', '_blank');
    await screenshot(page, 'home');
    await expectAccessible(page);
  });

  test('in test mode a small banner says so above the screen, covering nothing', async ({ page }) => {
    const viewport = page.viewportSize()!;
    await page.goto('/home');
    const banner = page.getByRole('complementary', { name: 'Modo de prueba' });
    // A fresh start seals contracts with a development certificate (issue 36): the banner says that too.
    await expect(banner).toHaveText('Modo de prueba: mensajes y sellos simulados.');
    const bannerBox = (await banner.boundingBox())!;
    const headingBox = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    const helpBox = (await page.getByRole('link', { name: 'Tengo dudas con mi registro' }).boundingBox())!;
    expect(bannerBox.y).toBe(0);
    expect(bannerBox.height).toBeLessThan(40);
    // Its text on one line, inside its band (a second line would spill onto the screen below).
    expect(await banner.evaluate((element) => element.scrollHeight <= element.clientHeight)).toBe(true);
    expect(headingBox.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height);
    expect(helpBox.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height);
    // A screen that fits the viewport still does: the banner adds no scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(viewport.height);
    await screenshot(page, 'test-mode-banner');
    await expectAccessible(page);
  });

  test('/ goes to /home and /home/{phone} prefills the number', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/home/8295550000');
    await expect(page.getByLabel('Teléfono celular')).toHaveValue('8295550000');
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeEnabled();
  });

  test('campaign parameters are kept in sessionStorage', async ({ page }) => {
    await page.goto('/home?version=3&utm_source=radio&utm_medium=spot&utm_campaign=colmados');
    // The heading comes with the HTML; the app keeps the parameters once its script has run.
    await expect
      .poll(() => page.evaluate(() => ({ ...sessionStorage })))
      .toMatchObject({ version: '3', utm_source: 'radio', utm_medium: 'spot', utm_campaign: 'colmados' });
  });

  test('an unknown path shows the fallback screen', async ({ page }) => {
    const response = await page.goto('/esta/ruta/no-existe');
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esta página');
    await screenshot(page, 'fallback');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Ir al inicio' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the not-found screen goes back one page with Regresar', async ({ page }) => {
    await page.goto('/home/8095550001');
    // The app is running (it prefilled the number): only it makes in-page history entries.
    await expect(page.getByLabel('Teléfono celular')).toHaveValue('8095550001');
    await page.evaluate(() => {
      window.history.pushState({ usr: null, key: 'x', idx: 1 }, '', '/not-found');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página no encontrada');
    await screenshot(page, 'not-found');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Regresar' }).click();
    await expect(page).toHaveURL(/\/home\/8095550001$/);
  });

  test('the help button opens the support chat with its text', async ({ page }) => {
    await page.goto('/home');
    const help = page.getByRole('link', { name: 'Tengo dudas con mi registro' });
    await expect(help).toBeVisible();
    await expect(help).toHaveAttribute('href', 'https://wa.me/18095550100?text=Tengo%20dudas%20con%20mi%20registro');
    await expect(help).toHaveAttribute('target', '_blank');
    await expect(help).toHaveAttribute('rel', /noopener/);
  });

  test('the help button floats: fixed, in view at the bottom of a long screen, over no control', async ({ page }) => {
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(`/${phone}/about-you`);
    const help = page.getByRole('link', { name: 'Tengo dudas con mi registro' });
    await expect(help).toHaveCSS('position', 'fixed');
    const viewport = page.viewportSize()!;
    // 'Sobre ti' is longer than the screen: at its end the button is still there to tap.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(viewport.height);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const box = (await help.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    // What the phone shows there: the band over what scrolled up, Continuar free below it.
    const size = viewport.width === 412 ? '' : `-${viewport.width}x${viewport.height}`;
    await page.screenshot({ path: `test-results/screens/help-floating-scrolled${size}.png` });
    // The overlap check (help-overlap.ts) runs with the screenshot, at the top and at the bottom.
    await screenshot(page, 'help-floating');
  });
});
