import type { Request } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { seedAndProve } from './helpers.js';

/**
 * Issue 14: on a slow network, choosing an address and tapping Continuar at once costs one round
 * trip: the place's answer carries its province, municipality and sector ids and the form's lists,
 * so the address form asks for none of them (before: place, provinces, the place again,
 * municipalities, sectors, one after the other).
 */
test('a chosen address: the form is ready after one call, and asks for nothing it got', async ({ page }) => {
  test.setTimeout(60_000);
  const { phone, userId } = await seedAndProve(page, { nextStep: 'BUSINESS_ADDRESS' });
  await expect(page).toHaveURL(new RegExp(`/${phone}/${userId}/search-address$`));

  // 3G as DevTools' "Slow 3G" has it: 400 ms of latency, 400 kbit/s down.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: (400 * 1024) / 8,
    uploadThroughput: (400 * 1024) / 8,
  });

  const search = page.getByRole('combobox', { name: 'Dirección del negocio' });
  await search.fill('Naco');
  const option = page.getByRole('option', { name: 'Ensanche Naco, Santo Domingo de Guzmán, Distrito Nacional' });
  await expect(option).toBeVisible({ timeout: 10_000 });

  const seen: Request[] = [];
  page.on('request', (request) => seen.push(request));
  await option.click();
  const tapped = Date.now();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Domicilio de tu negocio' })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByLabel('Sector').locator('option:checked')).toHaveText('Ensanche Naco', { timeout: 10_000 });
  const ready = Date.now() - tapped;
  await expect(page.getByLabel('Municipio').locator('option:checked')).toHaveText('Santo Domingo de Guzmán');
  await expect(page.getByLabel('Provincia').locator('option:checked')).toHaveText('Distrito Nacional');
  await page.waitForTimeout(1000);

  const api = seen
    .map((request) => new URL(request.url()).pathname)
    .filter((path) => path.startsWith('/api/'))
    // After arrival the form warms the next screen's lists (business types, sales ranges): not the address's.
    .filter((path) => !/\/(business-types|sales-ranges)$/.test(path));
  console.log(`address form ready ${ready} ms after the tap (400 ms latency); API calls: ${api.join(', ')}`);
  // The provinces were warmed when the search screen was first touched; the place is the one call.
  expect(api).toEqual([expect.stringMatching(/^\/api\/v1\/addresses\/[^/]+$/)]);
});
