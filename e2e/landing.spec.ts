import { expect, screenshot, test } from './fixtures.js';
import { countLayoutShifts, uniquePhone } from './helpers.js';

/**
 * Issue 14: the landing is prerendered by the server (apps/web/src/app/prerender.tsx, spa.ts), so
 * its first paint needs no JS; the app then hydrates that HTML. Its fonts are preloaded, and the
 * stand-in fonts are scaled to Poppins' metrics, so the swap moves nothing.
 */
const HEADING = 'Surte tu negocio con Provee';

test.describe('the prerendered landing', () => {
  test('/ and /home are served with the landing inside #root; pages without a preview with an empty one', async ({
    page,
  }) => {
    for (const path of ['/home', '/', '/home?utm_source=radio']) {
      const html = await (await page.request.get(path)).text();
      expect(html, path).toContain(`<div id="root"><aside class="test-mode-banner"`);
      expect(html, path).toContain(`<h1 class="page-title">${HEADING}</h1>`);
      expect(html, path).toContain('<label for="phone-number">Teléfono celular</label>');
    }
    for (const path of ['/home/8095550000', '/not-found', '/8095550000/0a/additional-data']) {
      expect(await (await page.request.get(path)).text(), path).toContain('<div id="root"></div>');
    }
    // The prerender's code is the server's: not a file anyone can download.
    const code = await page.request.get('/server/prerender.js');
    expect(code.headers()['content-type']).toContain('text/html');
    expect(await code.text()).not.toContain('renderToString');
  });

  test('with JavaScript off, /home still shows the landing', async ({ browser, page, baseURL }) => {
    const context = await browser.newContext({
      baseURL,
      javaScriptEnabled: false,
      viewport: page.viewportSize(),
      isMobile: true,
      hasTouch: true,
      locale: 'es-DO',
      deviceScaleFactor: 1,
    });
    const noJs = await context.newPage();
    const problems: string[] = [];
    noJs.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await noJs.goto('/home');
    await expect(noJs.getByRole('heading', { level: 1 })).toHaveText(HEADING);
    await expect(noJs.getByLabel('Teléfono celular')).toBeVisible();
    await expect(noJs.getByRole('button', { name: 'Continuar' })).toBeDisabled();
    await expect(noJs.getByRole('link', { name: 'Aviso de Privacidad' })).toBeVisible();
    await expect(noJs.getByRole('link', { name: 'Tengo dudas con mi registro' })).toBeVisible();
    await expect(noJs.locator('.noscript-notice')).toHaveText('Activa JavaScript para continuar con tu registro.');
    await screenshot(noJs, 'home-no-js');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the app adopts the server HTML (hydration, no re-render) and its button works', async ({ page }) => {
    // The h1 element the HTML parser made, before any script of the page runs.
    await page.addInitScript(() => {
      const keep = new MutationObserver(() => {
        const h1 = document.querySelector('h1');
        if (!h1) return;
        (window as unknown as { serverHeading: Element }).serverHeading = h1;
        keep.disconnect();
      });
      keep.observe(document, { childList: true, subtree: true });
    });
    const phone = uniquePhone();
    await page.goto('/home?otp-vendor=sms');
    await expect(page).toHaveTitle('Inicio · Provee');
    const adopted = await page.evaluate(
      () => document.querySelector('h1') === (window as unknown as { serverHeading?: Element }).serverHeading,
    );
    expect(adopted, 'the heading React shows is the one the server sent').toBe(true);
    await page.getByLabel('Teléfono celular').fill(phone);
    await expect(page.getByRole('img', { name: 'Número válido' })).toBeVisible();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/home/${phone}/code$`));
  });

  test('the JS is asked for once the landing has painted; a number typed before it runs is kept', async ({ page }) => {
    // The app's JS is held back: the shopkeeper on 3G sees the landing and types before it arrives.
    const scripts: { path: string; painted: boolean }[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      const painted = await route
        .request()
        .frame()
        .evaluate(() => performance.getEntriesByName('first-contentful-paint').length > 0)
        .catch(() => false);
      scripts.push({ path: new URL(route.request().url()).pathname, painted });
      await held;
      await route.continue();
    });
    const phone = uniquePhone();
    await page.goto('/home?otp-vendor=sms', { waitUntil: 'commit' });
    await page.getByLabel('Teléfono celular').fill(phone);
    await expect.poll(() => scripts.length, 'the JS was asked for').toBeGreaterThan(0);
    expect(
      scripts.every((script) => script.painted),
      'asked for after the first paint',
    ).toBe(true);
    release();
    await expect(page).toHaveTitle('Inicio · Provee');
    await expect(page.getByLabel('Teléfono celular')).toHaveValue(phone);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
  });

  test('the two Poppins weights are preloaded, and their late arrival shifts no layout', async ({ page }) => {
    const html = await (await page.request.get('/home')).text();
    const preloads = [...html.matchAll(/<link rel="preload" as="font" type="font\/woff2" href="([^"]+)" crossorigin/g)];
    expect(preloads.map((match) => match[1])).toEqual([
      expect.stringMatching(/^\/assets\/poppins-latin-400-normal-[\w-]+\.woff2$/),
      expect.stringMatching(/^\/assets\/poppins-latin-600-normal-[\w-]+\.woff2$/),
    ]);
    // The fonts are held until the page has painted with the stand-ins: the worst case of a slow network.
    const fonts: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.(woff2?|ttf)$/, async (route) => {
      fonts.push(new URL(route.request().url()).pathname);
      await held;
      await route.continue();
    });
    const shifts = await countLayoutShifts(page);
    const heading = () =>
      page.evaluate(() => {
        const poppins: string[] = [];
        document.fonts.forEach((face) => face.family === 'Poppins' && poppins.push(face.status));
        return { height: document.querySelector('h1')!.getBoundingClientRect().height, poppins };
      });
    await page.goto('/home', { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const before = await heading();
    expect(before.poppins, 'painted before Poppins arrived').not.toContain('loaded');
    release();
    await page.waitForFunction(() => document.fonts.check('600 16px Poppins') && document.fonts.check('16px Poppins'));
    await page.waitForTimeout(300);
    const after = await heading();
    const cls = await shifts();
    console.log(
      `landing: heading ${before.height}px with the stand-ins, ${after.height}px in Poppins; CLS ${cls.toFixed(4)}`,
    );
    expect(cls).toBeLessThanOrEqual(0.02);
    // The heading wraps the same in both (a stand-in off by a few percent would add or drop a line).
    expect(Math.abs(after.height - before.height)).toBeLessThan(2);
    expect(fonts.sort()).toEqual([
      expect.stringMatching(/poppins-latin-400-normal-[\w-]+\.woff2$/),
      expect.stringMatching(/poppins-latin-600-normal-[\w-]+\.woff2$/),
    ]);
  });
});
