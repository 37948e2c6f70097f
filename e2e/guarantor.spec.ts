import { cedulaCheckDigit } from '@provee/domain';
import type { APIRequestContext, Page } from '@playwright/test';
import { allowNavigationTo, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { asAnalyst, latestNip, proveWithSms, seedUser, smsWith, uniquePhone } from './helpers.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const clean = () => cedula(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
/** The bureau simulator's strong history: the guarantor is approved. */
const GOOD_GUARANTOR = cedula('9990000001');

/** A shopkeeper past the password whose partner an analyst named in the back office (the mobile app's form does the same). */
async function shopkeeperWithPartner(request: APIRequestContext) {
  const phone = uniquePhone();
  const partner = uniquePhone();
  const userId = await seedUser(request, { phone, nextStep: 'INVENTORY', taxId: clean() });
  const named = await request.post(`/api/backoffice/applications/${userId}/guarantors`, {
    data: { aval_type: 'PARTNER', name: 'Ramón Pérez', phone_number: partner, tax_payer_id: GOOD_GUARANTOR },
    headers: asAnalyst(),
  });
  expect(named.status()).toBe(200);
  return { phone, partner, userId };
}

async function enterPin(page: Page, nip: string) {
  await page.getByRole('textbox', { name: /NIP de consulta, dígito 1 de 4/ }).fill(nip);
  await page.getByRole('button', { name: 'Aceptar consulta' }).click();
}

/** Where the shopkeeper's application stands, read with the token the tab holds. */
async function shopkeeperStep(page: Page, userId: string): Promise<string> {
  return page.evaluate(async (id) => {
    const token = sessionStorage.getItem('clientToken') ?? '';
    const res = await fetch(`/api/v1/users/${id}/SK`, { headers: { authorization: token } });
    return ((await res.json()) as { data: { next_step: string } }).data.next_step;
  }, userId);
}

/** The guarantor opens the invitation link from their SMS. */
async function openInvitation(page: Page, partner: string) {
  const sms = await smsWith(page.request, partner, 'verify-aval-phone');
  const link = new URL(/(https?:\/\/\S+)/.exec(sms)![1]!);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeVisible();
}

/** 'Aceptar Consulta' sends the guarantor to WhatsApp with the message; this returns that message. */
async function acceptAndReachWhatsApp(page: Page): Promise<string> {
  allowNavigationTo(page, 'https://wa.me/');
  await page.route('https://wa.me/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<html lang="es"><title>WhatsApp</title><p>WhatsApp</p></html>' }),
  );
  await page.getByRole('button', { name: 'Aceptar Consulta' }).click();
  await page.waitForURL(/^https:\/\/wa\.me\//);
  return new URL(page.url()).searchParams.get('text') ?? '';
}

test.describe('guarantor (aval)', () => {
  test('(a) in person: the shopkeeper’s session lands on the partner PIN screen; thanks; the step moved', async ({
    page,
  }) => {
    const { phone, partner, userId } = await shopkeeperWithPartner(page.request);
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(new RegExp(`/partner/SK/${userId}/${partner}/send-nip-partner$`));
    await expect(page.getByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeVisible();
    await expect(page.getByText('te nombró como aval')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'guarantor-pin');
    await enterPin(page, await latestNip(page.request, partner));
    await expect(page).toHaveURL(/\/congratulations-partner$/);
    await expect(page.getByText('Nuestro equipo validará la información')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'guarantor-thanks');
    expect(await shopkeeperStep(page, userId)).toBe('PENDING_APPROVAL');
  });

  test('(b) remote: the invitation link, Aceptar Consulta, the message from their own phone, back: Excelente', async ({
    page,
  }) => {
    const { partner } = await shopkeeperWithPartner(page.request);
    await openInvitation(page, partner);
    await expectAccessible(page);
    await screenshot(page, 'guarantor-invitation');
    const message = await acceptAndReachWhatsApp(page);
    expect(message).toMatch(/Verificar .+: [A-Z0-9]{8}/);
    const sent = await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${partner}`, text: message } });
    expect(sent.ok()).toBe(true);
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Excelente' })).toBeVisible({ timeout: 15_000 });
    await screenshot(page, 'guarantor-validated');
  });

  test('(c) remote: the message sent from another number ends in Lo sentimos', async ({ page }) => {
    const { partner } = await shopkeeperWithPartner(page.request);
    await openInvitation(page, partner);
    const message = await acceptAndReachWhatsApp(page);
    await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${uniquePhone()}`, text: message } });
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Lo sentimos' })).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page);
    await screenshot(page, 'guarantor-not-validated');
  });

  test('(d) phone change: the PIN goes to the new number; the old PIN no longer works', async ({ page }) => {
    const { phone, partner, userId } = await shopkeeperWithPartner(page.request);
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(new RegExp(`/partner/SK/${userId}/${partner}/send-nip-partner$`));
    const oldPin = await latestNip(page.request, partner);
    await page.getByRole('button', { name: 'Cambiar número' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Prefijo')).toHaveValue('+1');
    const newPhone = uniquePhone();
    await dialog.getByLabel('Teléfono celular').fill(newPhone);
    await screenshot(page, 'guarantor-change-phone');
    await dialog.getByRole('button', { name: 'Enviar NIP' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/partner/SK/${userId}/${newPhone}/send-nip-partner`));
    const newPin = await latestNip(page.request, newPhone);
    if (oldPin !== newPin) {
      await enterPin(page, oldPin);
      await expect(page.getByText(/no es correcto/)).toBeVisible();
      await expect(page).toHaveURL(/send-nip-partner/);
    }
    await page.getByRole('textbox', { name: /NIP de consulta, dígito 1 de 4/ }).fill('');
    await enterPin(page, newPin);
    await expect(page).toHaveURL(/\/congratulations-partner$/);
  });
});
