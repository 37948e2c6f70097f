import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import {
  enterCode,
  fillAboutYou,
  latestCode,
  proveWithSms,
  saveTaxId,
  seedAndProve,
  seedUser,
  smsCount,
  submitPhone,
  toTaxIdStep,
  uniqueCedula,
  uniquePhone,
} from './helpers.js';

// Issue 8 (first audit), items 2–4: each "Seen" of the audit as it now behaves.

test.describe('the phone field (issue 8 item 2)', () => {
  test('pasted or typed with formatting or +1, the 10 national digits; check only for a number the plan accepts', async ({
    page,
  }) => {
    await page.goto('/home');
    const phone = page.getByLabel('Teléfono celular');
    const check = page.getByRole('img', { name: 'Número válido' });
    const continuar = page.getByRole('button', { name: 'Continuar' });

    await phone.fill('(809) 555-1234');
    await expect(phone).toHaveValue('8095551234');
    await expect(check).toBeVisible();
    await screenshot(page, 'home-pasted');

    await phone.fill('+1 809-555-1234');
    await expect(phone).toHaveValue('8095551234');
    await expect(continuar).toBeEnabled();

    await phone.fill('');
    for (const key of '+1809555123') {
      await phone.press(key === '+' ? 'Shift+Equal' : key);
      await expect(check).toHaveCount(0);
      await expect(continuar).toBeDisabled();
    }
    await expect(phone).toHaveValue('+1809555123');
    await phone.press('4');
    await expect(phone).toHaveValue('8095551234');
    await expect(check).toBeVisible();

    await phone.fill('0000000000');
    await expect(check).toHaveCount(0);
    await expect(continuar).toBeDisabled();
    const message = page.getByText('Ingresa un número celular válido de 10 dígitos.');
    await expect(message).toBeVisible();
    await expect(phone).toHaveAttribute('aria-describedby', await message.getAttribute('id').then((id) => id!));
    await screenshot(page, 'home-refused-number');
    await expectAccessible(page);
    await page.setViewportSize({ width: 360, height: 640 });
    await screenshot(page, 'home-refused-number-360');
  });
});

test.describe('back, reload and shared phones (issue 8 item 3)', () => {
  test('back to /home after the proof sends no new code and returns where the application stands; the tax id survives a reload', async ({
    page,
  }) => {
    const phone = uniquePhone();
    await toTaxIdStep(page, phone);
    const taxUrl = page.url();

    const taxId = page.getByRole('textbox', { name: 'Cédula / RNC' });
    await taxId.fill(uniqueCedula());
    await page.getByRole('checkbox', { name: 'Mi cédula es correcta' }).check();
    const typed = await taxId.inputValue();
    await page.reload();
    await expect(taxId).toHaveValue(typed);
    await expect(page.getByRole('checkbox', { name: 'Mi cédula es correcta' })).toBeChecked();

    const sent = await smsCount(page.request, phone);
    // Back goes to the step before (issue 27), then to the landing.
    await page.goBack();
    await expect(page).toHaveURL(`/${phone}/about-you`);
    await page.goBack();
    await expect(page).toHaveURL(/\/home\?otp-vendor=sms$/);
    await expect(page.getByLabel('Teléfono celular')).toHaveValue(phone);
    await expect(page.getByRole('button', { name: 'Cambiar número télefonico' })).toBeVisible();
    await screenshot(page, 'home-proven');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(taxUrl);
    expect(await smsCount(page.request, phone)).toBe(sent);

    // The code screen of the proven number (a back or an old link) goes straight on, too.
    await page.goto(`/home/${phone}/code`);
    await expect(page).toHaveURL(taxUrl);
    expect(await smsCount(page.request, phone)).toBe(sent);

    // Saved: the draft goes.
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/search-address$/);
    expect(await page.evaluate(() => sessionStorage.getItem('draft_tax_id'))).toBeNull();
  });

  test('a screen the application is past sends the user where it stands, on back and on a 409, without a modal', async ({
    page,
  }) => {
    const { phone, userId } = await seedAndProve(page, { nextStep: 'BUSINESS_ADDRESS' });
    await expect(page).toHaveURL(`/${phone}/${userId}/search-address`);
    await page.getByRole('button', { name: 'No encontre mi domicilio' }).click();
    await expect(page).toHaveURL(/\/about-living\?/);

    // The step is saved elsewhere (another tab): the form's own save answers 409.
    const token = await page.evaluate(() => sessionStorage.getItem('clientToken'));
    const states = (await (await page.request.get('/api/v1/states')).json()) as {
      data: { id: number; name: string }[];
    };
    const state = states.data.find((item) => item.name === 'Distrito Nacional')!;
    const cities = (await (await page.request.get(`/api/v1/states/${state.id}/cities`)).json()) as {
      data: { id: number; name: string }[];
    };
    const city = cities.data.find((item) => item.name === 'Santo Domingo de Guzmán')!;
    const hoods = (await (await page.request.get(`/api/v1/cities/${city.id}/neighborhoods`)).json()) as {
      data: { id: number; name: string }[];
    };
    const saved = await page.request.post(`/api/v1/users/${userId}/SK/businesses/address`, {
      headers: { authorization: token! },
      data: {
        zip_code: '00000',
        state: state.name,
        city: city.name,
        neighborhood: hoods.data[0]!.name,
        street_name: 'Calle Uno',
        street_number: '1',
        apartment_number: '',
      },
    });
    expect(saved.status()).toBe(200);

    await page.getByLabel('Provincia').selectOption(String(state.id));
    await page.getByLabel('Municipio').selectOption(String(city.id));
    await page.getByLabel('Sector').selectOption(String(hoods.data[0]!.id));
    await page.getByLabel('Calle').fill('Calle Dos');
    await page.getByLabel('Número exterior').fill('2');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(`/${phone}/${userId}/more-about`);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Back onto the address search (issue 27): the step before, with the address saved (the other
    // tab's), still correctable; Continuar without a new choice goes on with it.
    await page.goBack();
    await expect(page).toHaveURL(`/${phone}/${userId}/search-address`);
    await expect(page.getByText('Calle Uno 1, ', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/about-living$/);
    await expect(page.getByLabel('Calle')).toHaveValue('Calle Uno');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a second number in the same tab: nothing of the first person, and both leads recorded', async ({ page }) => {
    const leads: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/ops/v1/lead-assignment')) leads.push(response.status());
    });
    const first = uniquePhone();
    await proveWithSms(page, first);
    await expect(page).toHaveURL(`/${first}/about-you`);
    await fillAboutYou(page, 'Primera Persona');

    // Someone else takes the phone and proves their own number in this tab.
    const second = uniquePhone();
    await submitPhone(page, second, '/home');
    await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
    await enterCode(page, await latestCode(page.request, second));
    await expect(page).toHaveURL(`/${second}/about-you`);
    await expect(page.getByLabel('Nombres')).toHaveValue('');
    await expect(page.getByLabel('Año')).toHaveValue('');
    await expect(page.getByLabel('Estado civil')).toHaveValue('');
    const stored = await page.evaluate(() => JSON.stringify(sessionStorage));
    expect(stored).not.toContain('Primera');
    expect(stored).not.toContain(first);
    await expect.poll(() => leads).toEqual([201, 201]);
  });
});

test.describe('the right reason, and no pre-approval for the rejected (issue 8 item 4)', () => {
  test('the date selects offer no date under 18 on the day', async ({ page }) => {
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await expect(page).toHaveURL(`/${phone}/about-you`);
    const today = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Santo_Domingo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    const [year, month, day] = today.split('-').map(Number) as [number, number, number];
    const newest = String(year - 18);

    // A later day and month first, then the newest year: they are cleared, not kept.
    await page.getByLabel('Mes').selectOption('12');
    await page.getByLabel('Día').selectOption('31');
    await page.getByLabel('Año').selectOption(newest);
    if (month < 12) await expect(page.getByLabel('Mes')).toHaveValue('');
    await expect(page.getByLabel('Mes').locator('option:not([value=""])')).toHaveCount(month);
    await page.getByLabel('Mes').selectOption(String(month));
    await expect(page.getByLabel('Día').locator('option:not([value=""])')).toHaveCount(day);
    await screenshot(page, 'about-you-dates');
    await expectAccessible(page);
  });

  test('a tax id already used: /rejected shows the server reason', async ({ page }) => {
    const taken = uniqueCedula();
    await seedUser(page.request, { phone: uniquePhone(), nextStep: 'ACCOUNT_NIP', taxId: taken });
    const phone = uniquePhone();
    await proveWithSms(page, phone);
    await fillAboutYou(page);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await saveTaxId(page, taken);
    await expect(page).toHaveURL(/\/rejected$/);
    await expect(page.getByText('Ya existe una solicitud con esta cédula. Contacta a soporte.')).toBeVisible();
    await expect(page.getByText(/tu negocio no cumple/)).toHaveCount(0);
    await screenshot(page, 'rejected-reason');
    await expectAccessible(page);
    // Shown once: a reload gives the general text.
    await page.reload();
    await expect(page.getByText(/tu negocio no cumple/)).toBeVisible();
  });

  test('a rejected applicant opening the advisor screens by URL lands on /rejected', async ({ page }) => {
    const { phone, userId } = await seedAndProve(page, { nextStep: 'PASSWORD', status: 'REJECTED' });
    await expect(page).toHaveURL(/\/rejected$/);
    for (const screen of ['advisor-contact', 'advisor-welcome', 'download', 'create-password', 'congratulations']) {
      await page.goto(`/${phone}/${userId}/${screen}`);
      await expect(page).toHaveURL(/\/rejected$/);
      await expect(page.getByText('Tu préstamo fue pre aprobado')).toHaveCount(0);
    }
  });
});
