import type { Locator, Page } from '@playwright/test';
import { allowNavigationTo, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { SECURITY_ADMIN } from './staff-accounts.js';
import { authenticatorCode, giveAuthenticatorCode, signInAtProvider } from './staff-login.js';

/**
 * Issue 26 §2, staff accounts a security review accepts, on the 'staff' server (global setup: its
 * own database, single sign-on with a real OpenID provider, STAFF_STEP_UP_SECONDS=20, a localhost
 * address for passkeys). Everything through the screens, as the people would do it; the
 * authenticator app is otpauth computing the code from the key the enrolment screen shows.
 */
const STEP_UP_SECONDS = 20;
const ANALYST = {
  email: `analista-${Date.now().toString(36)}@prestamista.test`,
  name: 'Ana Segura',
  password: 'tortuga verde bajo el puente',
};

async function fillLogin(page: Page, account: { email: string; password: string }) {
  await page.getByLabel('Correo electrónico').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/**
 * A first login's enrolment: the key typed by hand into the app (read from the screen), its first
 * code, then the recovery codes (kept, box ticked). Answers the key and the codes.
 */
async function enrolAuthenticator(page: Page, shot?: string): Promise<{ key: string; codes: string[] }> {
  await expect(page.getByRole('heading', { level: 1, name: 'Protege tu cuenta' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' })).toBeVisible();
  const key = (await page.getByLabel('Clave para escribir a mano').inputValue()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  if (shot) {
    await expectAccessible(page);
    await screenshot(page, shot);
  }
  await page.getByLabel('Escribe el código de 6 dígitos que muestra la aplicación').fill(await authenticatorCode(key));
  await page.getByRole('button', { name: 'Confirmar' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Tus códigos de recuperación' })).toBeVisible();
  const codes = await page
    .getByRole('list', { name: 'Códigos de recuperación' })
    .getByRole('listitem')
    .allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  if (shot) {
    await expectAccessible(page);
    await screenshot(page, 'staff-recovery-codes');
  }
  const next = page.getByRole('button', { name: 'Continuar' });
  await expect(next).toBeDisabled();
  await page.getByLabel('Guardé mis códigos en un lugar seguro').check();
  await next.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible();
  return { key, codes };
}

/**
 * An action that needs a recent second factor: when the last one is older than the step-up time,
 * 'Confirma que eres tú' comes first (it depends on how long the steps before took).
 */
async function confirmIfAsked(page: Page, key: string, done: Locator) {
  const dialog = page.getByRole('dialog', { name: 'Confirma que eres tú' });
  await expect(dialog.or(done).first()).toBeVisible();
  if (await dialog.isVisible()) await giveAuthenticatorCode(page, key, dialog);
  await expect(done).toBeVisible();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
}

/** Chromium's virtual authenticator (CDP): a platform passkey with a fingerprint that always matches. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

test('an admin enrols, creates an analyst who sets a password and enrols; step-up, single sign-on and a passkey', async ({
  page: analyst,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);

  // The first admin (made with the CLI) logs in: the password, then the authenticator app.
  const adminContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'es-DO' });
  const admin = await adminContext.newPage();
  await admin.goto('/backoffice');
  await expect(admin).toHaveURL(/\/backoffice\/login\?next=/);
  await expect(admin.getByRole('link', { name: 'Entrar con Empresa Demo' })).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, 'staff-login');
  await fillLogin(admin, SECURITY_ADMIN);
  const { key: adminKey } = await enrolAuthenticator(admin, 'staff-enrol');

  // The admin creates the analyst's account: no password, a single-use link to hand over.
  await admin.getByRole('link', { name: 'Personal' }).click();
  const form = admin.getByRole('form', { name: 'Crear cuenta' });
  await form.getByLabel('Nombre').fill(ANALYST.name);
  await form.getByLabel('Correo electrónico').fill(ANALYST.email);
  await form.getByLabel('Rol', { exact: true }).selectOption('analyst');
  await form.getByRole('button', { name: 'Crear cuenta' }).click();
  const card = admin.getByRole('region', { name: `Enlace de contraseña para ${ANALYST.name}` });
  await confirmIfAsked(admin, adminKey, card);
  await expect(card).toContainText(
    'Entrega este enlace a la persona por un canal seguro: sirve una vez y vence en 1 hora.',
  );
  const link = new URL(await card.getByLabel('Enlace para crear la contraseña').inputValue());
  expect(link.pathname).toBe('/backoffice/password');
  expect(link.hash).toMatch(/^#token=/);
  await expect(admin.getByRole('row', { name: new RegExp(ANALYST.name) })).toContainText('Lo configura al entrar');
  await expectAccessible(admin);
  await screenshot(admin, 'staff-accounts');
  await adminContext.close();

  // The analyst opens the link on their own computer: the token leaves the address bar at once.
  await analyst.goto(`${link.pathname}${link.hash}`);
  await expect(analyst.getByText(`Hola, ${ANALYST.name}.`)).toBeVisible();
  await expect(analyst).toHaveURL(/\/backoffice\/password$/);
  await analyst.getByLabel('Contraseña nueva').fill('Contrasena2024');
  await analyst.getByLabel('Repite la contraseña').fill('Contrasena2024');
  await analyst.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(analyst.getByRole('alert')).toContainText('Esa contraseña es muy común o fácil de adivinar');
  await expectAccessible(analyst);
  await screenshot(analyst, 'staff-password');
  await analyst.getByLabel('Contraseña nueva').fill(ANALYST.password);
  await analyst.getByLabel('Repite la contraseña').fill(ANALYST.password);
  await analyst.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(analyst.getByText('tu contraseña quedó guardada')).toBeVisible();
  await analyst.getByRole('link', { name: 'Iniciar sesión' }).click();

  // The first login enrols the app (QR or the key by hand), and shows the recovery codes once.
  await fillLogin(analyst, ANALYST);
  const { key, codes } = await enrolAuthenticator(analyst);

  // Out and in again: the password, then the app's code (a later one: each code is good once).
  await logOut(analyst);
  await fillLogin(analyst, ANALYST);
  await expect(analyst.getByRole('heading', { level: 1, name: 'Verificación en dos pasos' })).toBeVisible();
  await expectAccessible(analyst);
  await screenshot(analyst, 'staff-factor');
  await giveAuthenticatorCode(analyst, key);
  await expect(analyst.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible();

  // Past the step-up time, an export asks for the factor again, then downloads.
  await analyst.waitForTimeout((STEP_UP_SECONDS + 1) * 1000);
  await analyst.getByRole('link', { name: 'Exportaciones' }).click();
  const download = analyst.waitForEvent('download');
  await analyst.getByRole('link', { name: 'Descargar solicitudes (CSV)' }).click();
  const dialog = analyst.getByRole('dialog', { name: 'Confirma que eres tú' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Código de 6 dígitos de tu aplicación')).toBeFocused();
  await expectAccessible(analyst);
  await screenshot(analyst, 'staff-step-up');
  await giveAuthenticatorCode(analyst, key, dialog);
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString('utf8').charCodeAt(0)).toBe(0xfeff);

  // Single sign-on: the company's provider says who it is; the back office still asks for the
  // second factor (here one of the recovery codes).
  await logOut(analyst);
  allowNavigationTo(analyst, process.env.E2E_SSO_ISSUER!);
  await signInAtProvider(ANALYST.email);
  await analyst.getByRole('link', { name: 'Entrar con Empresa Demo' }).click();
  await expect(analyst.getByRole('heading', { level: 1, name: 'Verificación en dos pasos' })).toBeVisible();
  await expect(analyst).toHaveURL(/\/backoffice\/login\/factor/);
  await analyst.getByRole('button', { name: 'Usar un código de recuperación' }).click();
  await analyst.getByLabel('Código de recuperación').fill(codes[0]!);
  await analyst.getByRole('button', { name: 'Confirmar' }).click();
  await expect(analyst.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible();

  // A passkey ('Mi seguridad'), then a login with it instead of the code.
  await addVirtualAuthenticator(analyst);
  await analyst.getByRole('link', { name: 'Mi seguridad' }).click();
  await expect(analyst.getByRole('region', { name: 'Códigos de recuperación' })).toContainText('Te quedan 9 de 10');
  await analyst.getByLabel('Nombre de la llave (opcional)').fill('Laptop de la oficina');
  await analyst.getByRole('button', { name: 'Agregar llave de acceso' }).click();
  await confirmIfAsked(analyst, key, analyst.getByText('Llave de acceso agregada.'));
  const passkeys = analyst.getByRole('region', { name: 'Llaves de acceso' });
  await expect(passkeys).toContainText('Laptop de la oficina');
  await expectAccessible(analyst);
  await screenshot(analyst, 'staff-security');

  await logOut(analyst);
  await fillLogin(analyst, ANALYST);
  await analyst.getByRole('button', { name: 'Usar una llave de acceso' }).click();
  // A refused passkey says why on the screen: that text, not a missing heading, is the failure.
  const signedIn = analyst.getByRole('heading', { level: 1, name: 'Solicitudes' });
  const refusal = analyst.getByRole('alert');
  await expect(signedIn.or(refusal).first()).toBeVisible({ timeout: 15_000 });
  expect(await refusal.allTextContents()).toEqual([]);
  await expect(signedIn).toBeVisible();
  await expect(analyst.getByText(ANALYST.name)).toBeVisible();
});
