import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { enterConsultationPin, saveTaxId, toTaxIdStep, uniqueCedula, uniquePhone } from './helpers.js';

// Issue 34: an applicant stops at the address; an hour later the reminder (WhatsApp first, read
// from the simulators' inbox) brings them back through its link, a fresh phone proof lands them on
// the address, and they finish.

interface Outbox {
  messages: { to: string; body: string; channel: 'sms' | 'whatsapp'; status: string | null }[];
}

/**
 * The clock moves `minutes` for this applicant: the dev tools' time machine runs their reminders as
 * of then (and, when that falls in the quiet hours, as of the morning that ends them).
 */
async function clockMoves(request: APIRequestContext, phone: string, minutes: number): Promise<void> {
  const run = (ahead: number) =>
    request.post('/dev/reminders/run', { data: { phone_number: phone, minutes_ahead: ahead } });
  let answer = (await (await run(minutes)).json()) as { sent: number; quiet: boolean; window_opens_at: string | null };
  if (answer.quiet) {
    const morning = Math.ceil((Date.parse(answer.window_opens_at!) - Date.now()) / 60_000);
    answer = (await (await run(morning)).json()) as typeof answer;
  }
  expect(answer).toMatchObject({ sent: 1, quiet: false });
}

test('a reminder an hour after stopping at the address brings the applicant back there; they finish', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const phone = uniquePhone();
  await toTaxIdStep(page, phone);
  await saveTaxId(page, uniqueCedula());
  await expect(page).toHaveURL(/\/search-address$/);
  const stepPath = new URL(page.url()).pathname;
  // Nothing is due before the hour.
  const early = await page.request.post('/dev/reminders/run', { data: { phone_number: phone, minutes_ahead: 30 } });
  expect(((await early.json()) as { sent: number }).sent).toBe(0);

  await clockMoves(page.request, phone, 60);
  let reminder: Outbox['messages'][number] | undefined;
  await expect(async () => {
    const outbox = (await (
      await page.request.get(`/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`)
    ).json()) as Outbox;
    reminder = outbox.messages.find((message) => message.body.includes('/r/'));
    expect(reminder?.status).toBe('read');
  }).toPass({ timeout: 30_000 });
  expect(reminder!.channel).toBe('whatsapp');
  expect(reminder!.body).toContain('tu solicitud de crédito quedó a medias');
  const link = new URL(/https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(reminder!.body)![0]);

  // Later, from the message: a new tab with nothing of the first.
  const context = await browser.newContext({ baseURL, viewport: page.viewportSize()!, locale: 'es-DO' });
  const later = await context.newPage();
  await later.goto(link.pathname);
  await expect(later).toHaveURL(`/home/${phone}`);
  await expect(later.getByLabel('Teléfono celular')).toHaveValue(new RegExp(phone.slice(-4)));
  await screenshot(later, 'reminder-landing');
  await expectAccessible(later);
  await later.getByRole('button', { name: 'Continuar' }).click();
  // The fresh proof (the default: a message from the phone).
  await expect(later).toHaveURL(new RegExp(`/home/${phone}\\?sessionUuid=[0-9a-f-]{36}$`));
  const message = (await later.locator('.message-text').textContent())!;
  expect(
    (await later.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${phone}`, text: message } })).ok(),
  ).toBe(true);
  await expect(later).toHaveURL(stepPath, { timeout: 10_000 });
  await expect(later.getByRole('heading', { name: '¿Dónde está tu negocio?' })).toBeVisible();

  // The link was spent: opened again, it says so.
  const again = await context.newPage();
  await again.goto(link.pathname);
  await expect(
    again.getByText('Este enlace ya no funciona. Escribe tu número para continuar donde te quedaste.'),
  ).toBeVisible();
  await screenshot(again, 'reminder-link-spent');
  await again.close();

  // They finish: the address, the business, the PIN, the password.
  await later.getByRole('combobox', { name: 'Dirección del negocio' }).fill('Naco');
  await later.getByRole('option', { name: 'Ensanche Naco, Santo Domingo de Guzmán, Distrito Nacional' }).click();
  await later.getByRole('button', { name: 'Continuar' }).click();
  await expect(later).toHaveURL(/\/about-living\?/);
  await later.getByLabel('Calle').fill('Calle Respaldo Los Robles');
  await later.getByLabel('Número exterior').fill('12');
  await later.getByRole('button', { name: 'Continuar' }).click();
  await expect(later).toHaveURL(/\/more-about$/);
  await later.getByLabel('Nombre del negocio').fill('Colmado La Esquina');
  await later.getByLabel('¿Cuánto tiempo tiene tu negocio?').selectOption('3');
  await later.getByLabel('Ventas promedio por semana').selectOption({ index: 3 });
  await later.getByLabel('Giro del negocio').selectOption({ index: 1 });
  await later.getByRole('button', { name: 'Continuar' }).click();
  await expect(later).toHaveURL(/\/send-nip$/);
  await enterConsultationPin(later, phone);
  await expect(later.getByRole('heading', { name: 'Felicidades' })).toBeVisible();
  await later.getByRole('button', { name: 'Crear contraseña' }).click();
  await later.getByLabel('Contraseña de 6 dígitos').fill('583920');
  await later.getByLabel('Confirma tu contraseña').fill('583920');
  await later.getByRole('button', { name: 'Continuar' }).click();
  await expect(later.getByRole('heading', { name: 'Tu préstamo fue pre aprobado' })).toBeVisible();

  // Came back: no reminder more, however late.
  const after = await later.request.post('/dev/reminders/run', {
    data: { phone_number: phone, minutes_ahead: 5 * 24 * 60 },
  });
  expect(((await after.json()) as { sent: number }).sent).toBe(0);
  await context.close();
});

test('the dev inbox shows WhatsApp and SMS apart, with each message’s delivery', async ({ page }) => {
  // A number without WhatsApp in the simulator: its code fails there and arrives by SMS.
  const phone = `8092${String(Math.floor(Math.random() * 100)).padStart(2, '0')}0000`;
  const sent = await page.request.post('/api/v1/users/code', { data: { phone_number: phone } });
  expect(sent.ok()).toBe(true);
  await expect(async () => {
    const outbox = (await (
      await page.request.get(`/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`)
    ).json()) as Outbox;
    expect(outbox.messages.map((message) => [message.channel, message.status])).toEqual([
      ['sms', 'delivered'],
      ['whatsapp', 'failed'],
    ]);
  }).toPass({ timeout: 10_000 });
  await page.goto('/dev/outbox');
  await expect(page.getByRole('heading', { name: 'WhatsApp' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'SMS' })).toBeVisible();
  await expect(page.getByText(`+1${phone}`).first()).toBeVisible();
  await screenshot(page, 'dev-inbox');
});
