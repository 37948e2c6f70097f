import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import {
  asAnalyst,
  cedulaFrom,
  latestNip,
  preApprovedShopkeeper,
  proveWithSms,
  seedUser,
  sendSigningLink,
  smsWith,
  uniqueCedula,
  uniquePhone,
} from './helpers.js';
import { openSigningSms } from './signing-helpers.js';

/** The bureau simulator's strong history: the guarantor is approved. */
const GOOD_GUARANTOR = cedulaFrom('9990000001');

/** A shopkeeper past the password whose partner an analyst named in the back office (the mobile app's form does the same). */
async function shopkeeperWithPartner(request: APIRequestContext) {
  const phone = uniquePhone();
  const partner = uniquePhone();
  const userId = await seedUser(request, { phone, nextStep: 'INVENTORY', taxId: uniqueCedula() });
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

/** A call of the shopkeeper's app, with the token the tab holds; answers the status. */
async function asShopkeeper(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: {
          authorization: sessionStorage.getItem('clientToken') ?? '',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return res.status;
    },
    { method, path, body },
  );
}

/** The application as the back office reads it (the guarantor's tab holds no shopkeeper token). */
async function application(request: APIRequestContext, userId: string) {
  const res = await request.get(`/api/backoffice/applications/${userId}`, { headers: asAnalyst() });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { next_step: string; guarantors: { id: string; status: string }[] } }).data;
}

const applicationStep = async (request: APIRequestContext, userId: string) =>
  (await application(request, userId)).next_step;

/** The guarantor opens the invitation link from their SMS. */
async function openInvitation(page: Page, partner: string) {
  const sms = await smsWith(page.request, partner, 'verify-aval-phone');
  const link = new URL(/(https?:\/\/\S+)/.exec(sms)![1]!);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeVisible();
}

/**
 * 'Aceptar Consulta' keeps the page: it says what to send and to come back here. 'Enviar por
 * WhatsApp' opens the messaging app in a window of its own (on a phone, WhatsApp over the browser)
 * while this tab stays where it is. Returns the message WhatsApp was handed.
 */
async function acceptAndOpenWhatsApp(page: Page, name?: string): Promise<string> {
  const context = page.context();
  await context.route('https://wa.me/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<html lang="es"><title>WhatsApp</title><p>WhatsApp</p></html>' }),
  );
  const invitation = page.url();
  await page.getByRole('button', { name: 'Aceptar Consulta' }).click();
  await expect(page.getByText('Mensaje a enviar')).toBeVisible();
  await expect(page.getByText('Vuelve a esta página: aquí verás el resultado.')).toBeVisible();
  expect(page.url()).toBe(invitation);
  if (name) {
    await expectAccessible(page);
    await screenshot(page, name);
  }
  const opened = context.waitForEvent('page');
  await page.getByRole('link', { name: 'Enviar por WhatsApp' }).click();
  const whatsapp = await opened;
  await whatsapp.waitForURL(/^https:\/\/wa\.me\//);
  const message = new URL(whatsapp.url()).searchParams.get('text') ?? '';
  // The guarantor sends it and comes back: the page never left.
  await whatsapp.close();
  await page.bringToFront();
  expect(page.url()).toBe(invitation);
  return message;
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

  test('(b) remote: Aceptar Consulta keeps the page, WhatsApp opens beside it, and Excelente shows once the message arrived', async ({
    page,
  }) => {
    const { partner, userId } = await shopkeeperWithPartner(page.request);
    await openInvitation(page, partner);
    await expectAccessible(page);
    await screenshot(page, 'guarantor-invitation');
    const message = await acceptAndOpenWhatsApp(page, 'guarantor-send-message');
    expect(message).toMatch(/Verificar .+: [A-Z0-9]{8}/);
    await expect(page.getByText('Esperando tu mensaje…')).toBeVisible();
    const sent = await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${partner}`, text: message } });
    expect(sent.ok()).toBe(true);
    // No reload, no back button: the page that waited shows the result within seconds.
    await expect(page.getByRole('heading', { name: 'Excelente' })).toBeVisible({ timeout: 12_000 });
    await expectAccessible(page);
    await screenshot(page, 'guarantor-validated');
    await expect.poll(() => applicationStep(page.request, userId)).toBe('PENDING_APPROVAL');
  });

  test('(c) remote: the message sent from another number ends in Lo sentimos on the page that waited', async ({
    page,
  }) => {
    const { partner } = await shopkeeperWithPartner(page.request);
    await openInvitation(page, partner);
    const message = await acceptAndOpenWhatsApp(page);
    await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${uniquePhone()}`, text: message } });
    await expect(page.getByRole('heading', { name: 'Lo sentimos' })).toBeVisible({ timeout: 12_000 });
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

  test('(e) a guarantor whose documents got no answer in time reads on /something-happened to contact the person they guarantee', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    // A pre-approved shopkeeper (the PIN screen, then the password through the tab's token) names a
    // partner who consents in person and is approved (the bureau simulator's strong history).
    const { userId } = await preApprovedShopkeeper(page, uniqueCedula());
    const partner = uniquePhone();
    expect(
      await asShopkeeper(page, 'PUT', `/api/v1/users/${userId}/SK/password`, {
        password: '258147',
        password_confirmation: '258147',
      }),
    ).toBe(200);
    const named = await page.request.post(`/api/backoffice/applications/${userId}/guarantors`, {
      data: { aval_type: 'PARTNER', name: 'Ramón Pérez', phone_number: partner, tax_payer_id: GOOD_GUARANTOR },
      headers: asAnalyst(),
    });
    expect(named.status(), await named.text()).toBe(200);
    const pinPath = `/api/v1/users/${userId}/SK/aval/nip?to=${partner}`;
    expect(await asShopkeeper(page, 'POST', pinPath)).toBe(200);
    expect(await asShopkeeper(page, 'PUT', pinPath, { nip: await latestNip(page.request, partner) })).toBe(200);
    await expect.poll(async () => (await application(page.request, userId)).guarantors[0]?.status).toBe('APPROVED');
    const avalId = (await application(page.request, userId)).guarantors[0]!.id;

    // The analyst sends the guarantor's signing link; the guarantor opens it from the SMS, in a new tab.
    await sendSigningLink(page.request, userId, { person_type: 'collateral', aval_id: avalId });
    const link = await openSigningSms(page, partner);
    // The photos went (the identity widget replaces the page with the review screen, as here); the
    // verifier never answers within the 5:00 of SPEC §4.
    const query = link.searchParams;
    const segment = (value: string | null) => `/${encodeURIComponent(value || '-')}`;
    const review = [
      query.get('user_type_id'),
      query.get('user_id'),
      query.get('titular_full_name'),
      query.get('type'),
      query.get('collateral_full_name'),
    ]
      .map(segment)
      .join('');
    expect(query.get('type')).toBe('collateral');
    await page.goto(`${review}/review-documents?verification_type=VERIFICATION`);
    await expect(page.getByText('Espera un momento, estamos revisando tus documentos')).toBeVisible();
    await page.clock.fastForward(301_000);

    await expect(page).toHaveURL(/\/something-happened\?person_type=collateral$/);
    await expect(page.getByRole('heading', { name: 'Algo pasó' })).toBeVisible();
    await expect(
      page.getByText('Ponte en contacto con la persona de la que eres aval para saber cómo sigue su crédito.'),
    ).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'something-happened-guarantor');
    // A reload keeps it (the address says who reads it).
    await page.reload();
    await expect(
      page.getByText('Ponte en contacto con la persona de la que eres aval', { exact: false }),
    ).toBeVisible();
  });
});
