import { cedulaCheckDigit } from '@provee/domain';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';
import { smsWith, uniquePhone } from './helpers.js';
import { shopkeeperThroughPublicApi } from './public-api-journey.js';
import { STAFF_ACCOUNTS } from './staff-accounts.js';
import { enrolledStaff, logInWithCode } from './staff-login.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const random = (digits: number) => String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0');
/** The verifier simulator's test identity that asks for a person's review (README, "Contract signing"). */
const UNDER_REVIEW = () => cedula(`9990007${random(3)}`);

/**
 * The login as staff make it: the password, then the authenticator app's code for the analyst and
 * the admin (the global setup enrolled their app at their first login; advisors need none).
 */
async function logIn(
  page: Page,
  role: keyof typeof STAFF_ACCOUNTS | { email: string; password: string; name: string },
) {
  await page.goto('/backoffice');
  await expect(page).toHaveURL(/\/backoffice\/login/);
  if (typeof role !== 'string') return logInWithCode(page, role, null);
  await logInWithCode(page, STAFF_ACCOUNTS[role], role === 'advisor' ? null : enrolledStaff('do', role).secret);
}

async function staffPage(browser: Browser, baseURL: string, role: keyof typeof STAFF_ACCOUNTS): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'es-DO' });
  const page = await context.newPage();
  await logIn(page, role);
  return page;
}

async function openApplication(page: Page, phone: string) {
  await page.getByLabel(/^Buscar por teléfono/).fill(`(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByRole('link', { name: /Mercedes Almonte/ }).click();
  await expect(page.getByRole('heading', { name: 'Historial' })).toBeVisible();
}

test.use({ permissions: ['geolocation', 'camera'], geolocation: { latitude: 18.4861, longitude: -69.9312 } });

test('an analyst finds a shopkeeper, reads the evidence, approves a review, and the shopkeeper’s screen moves on; an advisor sees less', async ({
  page: shopkeeper,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const phone = uniquePhone();
  const taxId = UNDER_REVIEW();
  const userId = await shopkeeperThroughPublicApi(shopkeeper.request, { phone, taxId });

  const analyst = await staffPage(browser, baseURL!, 'analyst');
  // Given a day of creation the list is by creation, the newest first, and says so above the table.
  await analyst.getByLabel('Creada desde').fill(new Date().toISOString().slice(0, 10));
  await analyst.getByRole('button', { name: 'Buscar' }).click();
  await expect(analyst.getByText('Solicitudes, la de creación más reciente primero')).toBeVisible();
  await expect(analyst.getByRole('row').filter({ hasText: `+1${phone}` })).toBeVisible();
  await screenshot(analyst, 'backoffice-list-by-creation');
  await openApplication(analyst, phone);
  // The consent with its evidence, the decision with its rules, the verified timeline.
  await expect(analyst.getByText('Cadena de auditoría verificada', { exact: false }).first()).toBeVisible();
  await expect(analyst.getByText('consent.given').first()).toBeVisible();
  await expect(analyst.getByText('decision.made').first()).toBeVisible();
  // Each rule of the decision with its outcome.
  await expect(analyst.getByRole('row').filter({ hasText: 'min_score' })).toContainText('Cumple');
  await expect(analyst.getByText(taxId)).toBeVisible();
  await screenshot(analyst, 'backoffice-application');

  // The analyst sends the signing link; the shopkeeper opens it from the SMS on their phone.
  await analyst
    .getByRole('button', { name: /Enviar enlace de firma/ })
    .first()
    .click();
  await expect(analyst.getByText(/enlace/i).first()).toBeVisible();
  const sms = await smsWith(shopkeeper.request, phone, 'send-contract-sign');
  const link = new URL(/(https?:\/\/\S+)/.exec(sms)![1]!);
  await shopkeeper.clock.install();
  await shopkeeper.goto(`${link.pathname}${link.search}`);
  await expect(shopkeeper.getByRole('heading', { name: 'Firma de contrato' })).toBeVisible();
  for (const label of ['Frente de tu cédula', 'Reverso de tu cédula', 'Tu selfie']) {
    await expect(shopkeeper.getByRole('heading', { name: label })).toBeVisible();
    const camera = shopkeeper.getByLabel(`Vista de la cámara: ${label}`);
    await expect.poll(() => camera.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
    await shopkeeper.getByRole('button', { name: 'Tomar foto' }).click();
    await shopkeeper.getByRole('button', { name: 'Usar foto' }).click();
  }
  await shopkeeper.getByRole('button', { name: 'Enviar documentos' }).click();
  // The review countdown has started at 5:00 (a loaded machine may show a second or more less).
  await expect(shopkeeper.getByRole('timer')).toHaveText(/^(5:00|4:[45]\d)$/);
  // The verifier asks for a person: the shopkeeper's review screen says so as soon as it is known.
  await expect(shopkeeper.getByRole('heading', { name: 'Seguimos trabajando' })).toBeVisible({ timeout: 15_000 });

  // The verifier asks for a person: the analyst sees it (reload) and approves it with a note.
  await expect
    .poll(
      async () => {
        await analyst.reload();
        await expect(analyst.getByRole('heading', { name: 'Historial' })).toBeVisible();
        return analyst.getByRole('button', { name: 'Aprobar verificación' }).count();
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  await expect(analyst.getByRole('img', { name: /Frente|id_front|cédula/i }).first()).toBeVisible();
  await analyst.getByLabel('Nota').fill('Cédula legible, la selfie coincide');
  await analyst.getByRole('button', { name: 'Aprobar verificación' }).click();
  await expect(analyst.getByText('Decisión registrada')).toBeVisible();

  // The shopkeeper opens the link again: verified, on to the signature.
  await shopkeeper.goto(`${link.pathname}${link.search}`);
  await expect(shopkeeper.getByText('Tu identidad ya fue verificada. Ya puedes firmar tu contrato.')).toBeVisible();

  // An advisor reads the same application without the identity images or the whole tax id.
  const advisor = await staffPage(browser, baseURL!, 'advisor');
  await openApplication(advisor, phone);
  await expect(advisor.getByText(taxId)).toHaveCount(0);
  await expect(advisor.getByText('•••••••••••').first()).toBeVisible();
  await expect(advisor.getByText('Solo analistas pueden abrir el contrato y su evidencia.')).toBeVisible();
  await expect(advisor.getByText('Solo analistas pueden ver las imágenes').first()).toBeVisible();
  await expect(advisor.getByRole('img', { name: /Frente|id_front|cédula/i })).toHaveCount(0);
  const detail = (await (await advisor.request.get(`/api/backoffice/applications/${userId}`)).json()) as {
    data: { person: { tax_id: string }; signers: { verifications: { documents: { id: string }[] }[] }[] };
  };
  expect(detail.data.person.tax_id).not.toBe(taxId);
  const documentId = detail.data.signers[0]!.verifications[0]!.documents[0]!.id;
  const image = await advisor.request.get(`/api/backoffice/applications/${userId}/identity-documents/${documentId}`);
  expect(image.status()).toBe(403);
  await screenshot(advisor, 'backoffice-advisor');
  await analyst.context().close();
  await advisor.context().close();
});

test('an admin makes an advisor account, the advisor sets the password with the link, the admin switches it off; the funnel and the exports answer for the period', async ({
  page: admin,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // An applicant of today, pre-approved through the public API: the funnel must count them.
  await shopkeeperThroughPublicApi(admin.request, { phone: uniquePhone(), taxId: cedula(`4${random(9)}`) });
  await logIn(admin, 'admin');
  await admin.getByRole('link', { name: 'Personal' }).click();
  const email = `asesora-${random(6)}@prestamista.test`;
  const form = admin.getByRole('form', { name: 'Crear cuenta' });
  await form.getByLabel('Nombre').fill('Inés Asesora');
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByLabel('Rol', { exact: true }).selectOption('advisor');
  await form.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(admin.getByRole('row', { name: /Inés Asesora/ })).toBeVisible();
  // No password travels: the admin hands over a single-use link.
  const card = admin.getByRole('region', { name: 'Enlace de contraseña para Inés Asesora' });
  await expect(card).toContainText('sirve una vez y vence en 1 hora');
  const link = new URL(await card.getByLabel('Enlace para crear la contraseña').inputValue());
  await screenshot(admin, 'backoffice-staff');

  // The new advisor sets the password on the link's page, logs in and works; the moment the admin
  // switches the account off, the next call is a login.
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'es-DO' });
  const advisor = await context.newPage();
  await advisor.goto(`${link.pathname}${link.hash}`);
  await expect(advisor.getByText('Hola, Inés Asesora.')).toBeVisible();
  await advisor.getByLabel('Contraseña nueva').fill('una-clave-de-asesora-nueva');
  await advisor.getByLabel('Repite la contraseña').fill('una-clave-de-asesora-nueva');
  await advisor.getByRole('button', { name: 'Guardar contraseña' }).click();
  await advisor.getByRole('link', { name: 'Iniciar sesión' }).click();
  await logInWithCode(advisor, { email, password: 'una-clave-de-asesora-nueva', name: 'Inés Asesora' }, null);
  await expect(advisor.getByRole('link', { name: 'Embudo' })).toHaveCount(0);
  await admin.getByRole('button', { name: 'Desactivar la cuenta de Inés Asesora' }).click();
  await expect(admin.getByText('Cuenta de Inés Asesora desactivada')).toBeVisible();
  await advisor.getByRole('link', { name: 'Cola de asesores' }).click();
  await expect(advisor).toHaveURL(/\/backoffice\/login/);
  await context.close();

  // The funnel of the last 30 days counts today's applicant; the CSV downloads for the period.
  await admin.getByRole('link', { name: 'Embudo' }).click();
  await admin.getByRole('button', { name: /Ver|Actualizar|Consultar/ }).click();
  const reached = async (step: string) =>
    Number(
      await admin
        .getByRole('row', { name: new RegExp(step) })
        .getByRole('cell')
        .first()
        .textContent(),
    );
  await expect.poll(() => reached('Registro iniciado')).toBeGreaterThanOrEqual(1);
  expect(await reached('Preaprobado')).toBeGreaterThanOrEqual(1);
  expect(await reached('Preaprobado')).toBeLessThanOrEqual(await reached('Consulta autorizada'));
  await expect(admin.locator('svg').first()).toBeVisible();
  await screenshot(admin, 'backoffice-funnel');
  await admin.getByRole('link', { name: 'Exportaciones' }).click();
  const download = admin.waitForEvent('download');
  await admin.getByRole('link', { name: 'Descargar consentimientos (CSV)' }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const csv = Buffer.concat(chunks).toString('utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv.split('\r\n')[0]).toContain('bureau_folio');

  // The background jobs (decision 029): by kind and state, the failed ones first.
  await admin.getByRole('link', { name: 'Trabajos' }).click();
  await expect(admin.getByRole('heading', { name: 'Trabajos en segundo plano' })).toBeVisible();
  // This server may have run none yet (the signed copies are another server's).
  const byKind = admin.getByRole('table', { name: 'Trabajos por tipo' });
  await expect(byKind.or(admin.getByText('Todavía no hay trabajos en la cola.'))).toBeVisible();
  await admin.getByLabel('Estado').selectOption('');
  await expectAccessible(admin);
  await screenshot(admin, 'backoffice-jobs');

  // The retention schedule (decision 033): its rules as the table holds them, and the last runs.
  await admin.getByRole('link', { name: 'Conservación' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Conservación de datos' })).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'backoffice-retention');
});

test('naming a guarantor before the application reaches the inventory step: the analyst reads why in staff words', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // Pre-approved, no password yet: a guarantor cannot be named before the inventory step.
  const phone = uniquePhone();
  await shopkeeperThroughPublicApi(page.request, { phone, taxId: cedula(`4${random(9)}`) });
  const analyst = await staffPage(browser, baseURL!, 'analyst');
  await openApplication(analyst, phone);
  const form = analyst.getByRole('form', { name: 'Registrar aval' });
  await form.getByLabel('Nombre(s)').fill('Ramón');
  await form.getByLabel('Apellido paterno').fill('Pérez');
  await form.getByLabel('Celular').fill(uniquePhone());
  await form.getByLabel('Identificación fiscal').fill(cedula('9990000001'));
  await form.getByRole('button', { name: 'Registrar aval' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'Todavía no se puede registrar un aval: la solicitud está en «Contraseña». Se puede cuando el solicitante haya creado su contraseña (paso «Inventario»).',
  );
  // Not the shopkeeper's screen wording ('Te llevamos a donde te quedaste').
  await expect(analyst.getByText(/Te llevamos/)).toHaveCount(0);
  await screenshot(analyst, 'backoffice-guarantor-too-early');
  await analyst.context().close();
});

/** One login of a shopkeeper as the web app makes it: a fresh tab, the default proof (a message from the phone). */
async function logInAsShopkeeper(browser: Browser, baseURL: string, phone: string): Promise<void> {
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 }, locale: 'es-DO' });
  const page = await context.newPage();
  await page.goto('/home');
  await page.getByLabel('Teléfono celular').fill(phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
  const message = (await page.locator('.message-text').textContent())!;
  const lead = page.waitForResponse((response) => response.url().includes('/ops/v1/lead-assignment'));
  await page.request.post('/dev/reverse-otp/inbound', { data: { from: `+1${phone}`, text: message } });
  expect((await lead).status()).toBe(201);
  await context.close();
}

test('the advisor queue names what each task is and lists a person who logged in twice once', async ({
  page: advisor,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const phone = uniquePhone();
  await logInAsShopkeeper(browser, baseURL!, phone);
  await logInAsShopkeeper(browser, baseURL!, phone);
  // Both logins are recorded (decision 005) …
  await logIn(advisor, 'advisor');
  await advisor.getByRole('link', { name: 'Cola de asesores' }).click();
  await expect(advisor.getByRole('heading', { name: 'Cola de asesores' })).toBeVisible();
  // … and the queue has one task for the person, with what it is in words.
  const rows = advisor.getByRole('row').filter({ hasText: `+1${phone}` });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Inició su registro');
  await expect(rows).toContainText('Entró 2 veces');
  await expect(advisor.getByRole('cell', { name: 'INTERNAL' })).toHaveCount(0);
  await expect(advisor.getByText('INTERNAL')).toHaveCount(0);
  await screenshot(advisor, 'backoffice-queue');
  // Taking it takes the person's one task.
  await rows.getByRole('button', { name: /^Tomar la tarea de/ }).click();
  await expect(advisor.getByText(/^Tomaste la tarea de/)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Tú');
});
