import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { enterCode, latestCode, proveWithSms, smsCount, submitPhone, uniquePhone } from './helpers.js';

test.describe('phone proof', () => {
  test('a new number: /home → reverse OTP sent from the simulated phone → about-you', async ({ page, context }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone, '/home?utm_source=radio&utm_campaign=colmados');

    await expect(page.getByRole('heading', { name: 'Confirma que este celular es tuyo' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/home/${phone}\\?sessionUuid=[0-9a-f-]{36}$`));
    const message = (await page.locator('.message-text').textContent())!;
    expect(message).toMatch(/^Verificar Provee: [A-Z2-9]{8}$/);
    const whatsapp = page.getByRole('link', { name: 'Enviar por WhatsApp' });
    await expect(whatsapp).toHaveAttribute('href', `https://wa.me/18095550111?text=${encodeURIComponent(message)}`);
    await expect(page.getByRole('link', { name: 'Enviar por SMS' })).toHaveAttribute(
      'href',
      `sms:+18095550111?&body=${encodeURIComponent(message)}`,
    );
    // On a phone-sized screen there is no QR code (it is for computers).
    await expect(page.getByRole('img', { name: /Código QR/ })).toHaveCount(0);
    await screenshot(page, 'reverse-otp');
    await expectAccessible(page);

    // The tester's simulated phone sends the message.
    const phonePage = await context.newPage();
    await phonePage.goto('/dev/phone');
    await phonePage
      .locator('li', { hasText: `+1${phone}` })
      .getByRole('button', { name: 'Enviar mensaje' })
      .click();
    await expect(phonePage.getByText('Mensaje enviado.')).toBeVisible();
    await phonePage.close();

    await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`), { timeout: 10_000 });
    const stored = await page.evaluate(() => ({ ...sessionStorage }));
    expect(stored).toMatchObject({
      phone_number: phone,
      anonymous_id: `anon-${phone}`,
      utm_source: 'radio',
      utm_campaign: 'colmados',
    });
    expect(stored.clientToken).toMatch(/^Bearer .+/);
  });

  test('with ?otp-vendor=sms: the code from the outbox → about-you', async ({ page }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone);

    await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    await expect(page.getByText('+1 809', { exact: false })).toBeVisible();
    const boxes = page.getByRole('group', { name: 'Código de seguridad' }).getByRole('textbox');
    await expect(boxes).toHaveCount(6);
    await expect(boxes.first()).toHaveAttribute('autocomplete', 'one-time-code');
    const resend = page.getByRole('button', { name: 'Reenviar Código' });
    await expect(resend).toBeDisabled();
    await expect(page.getByRole('timer')).toHaveText(/^00 : 5\d|01 : 00$/);
    const continuar = page.getByRole('button', { name: 'Continuar' });
    await expect(continuar).toBeDisabled();
    await screenshot(page, 'code');
    await expectAccessible(page);

    const code = await latestCode(page.request, phone);
    await boxes.first().focus();
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement!.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, code);
    await expect(boxes.nth(5)).toHaveValue(code[5]!);
    await expect(continuar).toBeEnabled();
    await continuar.click();
    await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`));
  });

  test('a wrong code shows the error modal; "Cambiar número télefonico" clears the number', async ({ page }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone);
    const code = await latestCode(page.request, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    await enterCode(page, wrong);
    const dialog = page.getByRole('dialog', { name: '¡Parece que hubo un error!' });
    await expect(dialog).toContainText('El código no es correcto. Te quedan 4 intentos.');
    await screenshot(page, 'code-wrong');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Entendido' }).click();
    await expect(dialog).toHaveCount(0);

    await page.getByRole('button', { name: 'Cambiar número télefonico' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByLabel('Teléfono celular')).toHaveValue('');
  });

  test('wrong codes count down to one try left, in the singular', async ({ page }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone);
    const code = await latestCode(page.request, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const dialog = page.getByRole('dialog', { name: '¡Parece que hubo un error!' });
    for (const left of [
      'Te quedan 4 intentos.',
      'Te quedan 3 intentos.',
      'Te quedan 2 intentos.',
      'Te queda 1 intento.',
    ]) {
      await enterCode(page, wrong);
      await expect(dialog).toContainText(`El código no es correcto. ${left}`);
      await dialog.getByRole('button', { name: 'Entendido' }).click();
    }
  });

  test('back within the resend interval after the proof: a new code is sent, said so, and accepted', async ({
    page,
    browser,
    baseURL,
  }) => {
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`));
    const sms = () => smsCount(page.request, phone);
    const before = await sms();

    // The shopkeeper closes the tab and, seconds later, enters the number again elsewhere.
    const other = await browser.newContext({ baseURL, viewport: page.viewportSize()!, locale: 'es-DO' });
    const again = await other.newPage();
    await submitPhone(again, phone);
    await expect(again.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    // The proven code is spent: a new one goes out at once, and the screen says it was sent.
    await expect.poll(sms).toBe(before + 1);
    await expect(again.getByText('Escribe el código de 6 dígitos que enviamos por SMS al')).toBeVisible();
    await expect(again.getByRole('timer')).toHaveText(/^00 : 5\d|01 : 00$/);
    await enterCode(again, await latestCode(again.request, phone));
    await expect(again).toHaveURL(new RegExp(`/${phone}/about-you$`));
    await other.close();
  });

  test('back within the resend interval before using the code: no new code, the screen says the last one still works', async ({
    page,
    browser,
    baseURL,
  }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone);
    await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    const code = await latestCode(page.request, phone);

    const other = await browser.newContext({ baseURL, viewport: page.viewportSize()!, locale: 'es-DO' });
    const again = await other.newPage();
    await submitPhone(again, phone);
    await expect(again.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    // Nothing new was sent: the screen says so, how long the last code lasts and when another can be asked.
    await expect(again.getByText('Escribe el último código que te enviamos por SMS al')).toBeVisible();
    await expect(again.getByText('enviamos por SMS al', { exact: false })).toHaveCount(1);
    await expect(again.getByText(/^Ese código vence en 0\d : \d\d$/)).toBeVisible();
    await expect(again.getByText(/^Podrás pedir otro código en 00 : [0-5]\d$/)).toBeVisible();
    await screenshot(again, 'code-last-still-valid');
    await enterCode(again, code);
    await expect(again).toHaveURL(new RegExp(`/${phone}/about-you$`));
    await other.close();
  });

  test('a message from another number: the SPEC §8 advice without the QR a phone never shows, and its button goes to /home', async ({
    page,
  }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone, '/home');
    const message = (await page.locator('.message-text').textContent())!;
    const res = await page.request.post('/dev/reverse-otp/inbound', {
      data: { from: `+1${uniquePhone()}`, text: message },
    });
    expect(res.ok()).toBe(true);
    const dialog = page.getByRole('dialog', { name: '¡Parece que hubo un error!' });
    await expect(dialog).toContainText(
      'La verificación es incorrecta. Regresa a la página de inicio y vuelve a intentarlo desde el celular con el que hiciste la solicitud.',
    );
    await expect(dialog).not.toContainText('QR');
    await dialog.getByRole('button', { name: 'Entendido' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('/home/{phone}?sessionUuid={id} resumes the session on another device, with a QR on a computer', async ({
    page,
    browser,
    baseURL,
  }) => {
    const phone = uniquePhone();
    await submitPhone(page, phone, '/home');
    await expect(page.locator('.message-text')).toBeVisible();
    const url = page.url();

    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
    const other = await desktop.newPage();
    await other.goto(url.replace(/^https?:\/\/[^/]+/, ''));
    await expect(other.locator('.message-text')).toHaveText((await page.locator('.message-text').textContent())!);
    await expect(other.getByRole('img', { name: 'Código QR para enviar el mensaje por WhatsApp' })).toBeVisible();
    await other.screenshot({ path: 'test-results/screens/reverse-otp-desktop.png' });

    const message = (await other.locator('.message-text').textContent())!;
    await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${phone}`, text: message } });
    await expect(other).toHaveURL(new RegExp(`/${phone}/about-you$`), { timeout: 10_000 });
    await expect(page).toHaveURL(new RegExp(`/${phone}/about-you$`), { timeout: 10_000 });
    await desktop.close();
  });

  test('the lead is handed to sales after the proof', async ({ page }) => {
    const phone = uniquePhone();
    const lead = page.waitForResponse((response) => response.url().endsWith('/ops/v1/lead-assignment'));
    await proveWithSms(page, phone);
    const response = await lead;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toMatchObject({ lead_type: 'INTERNAL', shopkeeper_phone: phone });
  });
});
