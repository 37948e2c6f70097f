import { cedulaCheckDigit } from '@provee/domain';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { fillAboutYou } from './about-you-form.js';
import { enrolledStaff } from './staff-login.js';

export { fillAboutYou };

/** A valid Dominican mobile number nobody else in this run uses. */
export function uniquePhone(): string {
  const exchange = 2 + Math.floor(Math.random() * 8);
  // Not ending in 0000: the simulator gives such a number no WhatsApp (its messages fall back to SMS).
  const line = String(1 + Math.floor(Math.random() * 999_999))
    .padStart(6, '0')
    .replace(/0000$/, '0001');
  return `809${exchange}${line}`;
}

/** The newest SMS the outbox provider "sent" to this phone. */
export async function latestSms(request: APIRequestContext, phone: string): Promise<string> {
  let body = '';
  await expect(async () => {
    const res = await request.get(`/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`);
    body = ((await res.json()) as { messages: { body: string }[] }).messages[0]?.body ?? '';
    expect(body).not.toBe('');
  }).toPass({ timeout: 15_000 });
  return body;
}

/** A cédula with the right check digit after these ten digits. */
export const cedulaFrom = (ten: string): string => `${ten}${cedulaCheckDigit(ten)}`;

/** A valid cédula nobody else in this run uses (starting with 4: none of the simulators' test identities). */
export const uniqueCedula = (): string => cedulaFrom(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);

/** How many SMS the outbox holds for this number. */
export async function smsCount(request: APIRequestContext, phone: string): Promise<number> {
  const res = await request.get(`/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`);
  return ((await res.json()) as { messages: unknown[] }).messages.length;
}

export async function latestCode(request: APIRequestContext, phone: string): Promise<string> {
  return /\b(\d{6})\b/.exec(await latestSms(request, phone))![1]!;
}

/** Where a seeded user stands. */
export interface SeededUser {
  phone: string;
  nextStep: string;
  status?: string;
  avals?: { aval_type: 'PARTNER' | 'COLLATERAL'; phone: string | null }[];
  /** A complete registration with this cédula (11 digits). */
  taxId?: string;
}

/** A user already at some step, through the test factory of the built server. */
export async function seedUser(request: APIRequestContext, user: SeededUser): Promise<string> {
  const res = await request.post('/dev/test/users', {
    data: {
      phone_number: user.phone,
      next_step: user.nextStep,
      status: user.status ?? 'IN_PROGRESS',
      avals: user.avals ?? [],
      ...(user.taxId ? { complete: { tax_id: user.taxId } } : {}),
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { user_id: string } }).data.user_id;
}

/** Through the SMS code flow (?otp-vendor=sms) from the landing to wherever routing sends the user. */
export async function proveWithSms(page: Page, phone: string): Promise<void> {
  await submitPhone(page, phone);
  await expect(page.getByRole('heading', { name: 'Código de seguridad' })).toBeVisible();
  await enterCode(page, await latestCode(page.request, phone));
}

/** The landing at `landing` (the SMS code by default): types the number and presses Continuar. */
export async function submitPhone(page: Page, phone: string, landing = '/home?otp-vendor=sms'): Promise<void> {
  await page.goto(landing);
  await page.getByLabel('Teléfono celular').fill(phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
}

/** The code screen: types the six digits and presses Continuar. */
export async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: /dígito 1 de 6/ }).fill(code);
  await page.getByRole('button', { name: 'Continuar' }).click();
}

/** A new phone's user seeded at some step proves the number through the SMS code (routing takes over from there). */
export async function seedAndProve(
  page: Page,
  user: Omit<SeededUser, 'phone'>,
): Promise<{ phone: string; userId: string }> {
  const phone = uniquePhone();
  const userId = await seedUser(page.request, { phone, ...user });
  await proveWithSms(page, phone);
  return { phone, userId };
}

/** From the landing through 'Sobre ti' (saved) to the cédula step. */
export async function toTaxIdStep(page: Page, phone: string): Promise<void> {
  await proveWithSms(page, phone);
  await expect(page).toHaveURL(`/${phone}/about-you`);
  await fillAboutYou(page);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/additional-data$/);
}

/** The cédula step: types the tax id, confirms it is right and presses Continuar. */
export async function saveTaxId(page: Page, taxId: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Cédula / RNC' }).fill(taxId);
  await page.getByRole('checkbox', { name: 'Mi cédula es correcta' }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();
}

/** The newest SMS to `phone` that contains `text` (a code, a PIN and an invitation may go to one phone). */
export async function smsWith(
  request: APIRequestContext,
  phone: string,
  text: string,
  countryCode = '+1',
): Promise<string> {
  let body = '';
  await expect(async () => {
    const res = await request.get(`/dev/outbox.json?to=${encodeURIComponent(`${countryCode}${phone}`)}`);
    const messages = ((await res.json()) as { messages: { body: string }[] }).messages;
    body = messages.find((message) => message.body.includes(text))?.body ?? '';
    expect(body).not.toBe('');
  }).toPass({ timeout: 15_000 });
  return body;
}

/** The 4-digit consultation PIN from the outbox (waits for the PIN's SMS, not an earlier code's). */
export async function latestNip(request: APIRequestContext, phone: string): Promise<string> {
  return /\b(\d{4})\b/.exec(await smsWith(request, phone, 'NIP'))![1]!;
}

/** The PIN screen: types the consultation PIN from the outbox and presses Continuar. */
export async function enterConsultationPin(page: Page, phone: string): Promise<void> {
  await page
    .getByRole('textbox', { name: /NIP de consulta, dígito 1 de 4/ })
    .fill(await latestNip(page.request, phone));
  await page.getByRole('button', { name: 'Continuar' }).click();
}

/**
 * A shopkeeper who finished the registration screens (`taxId` on file) proves the phone and gets
 * the pre-approval on the PIN screen: 'Felicidades'.
 */
export async function preApprovedShopkeeper(page: Page, taxId: string): Promise<{ phone: string; userId: string }> {
  const { phone, userId } = await seedAndProve(page, { nextStep: 'ACCOUNT_NIP', taxId });
  await expect(page.getByRole('heading', { name: 'NIP de Consulta' })).toBeVisible();
  await enterConsultationPin(page, phone);
  await expect(page.getByRole('heading', { name: 'Felicidades' })).toBeVisible();
  return { phone, userId };
}

/**
 * The step indicator as shown: 'Paso 4/6 Registro' (six bars, one per registration screen) or
 * 'Paso 2/3 Evaluación' (five bars), and how many bars are done.
 */
export async function expectStepper(page: Page, label: string, filled: number, bars = 5): Promise<void> {
  await expect(page.locator('.stepper-label')).toHaveText(label);
  await expect(page.locator('.stepper-bar')).toHaveCount(bars);
  await expect(page.locator('.stepper-bar.is-done')).toHaveCount(filled);
}

/**
 * The headers of an analyst's back-office session on this test's server: the one the global setup
 * opened at the analyst's first login (made with the staff:create CLI, then the password and the
 * authenticator app's enrolment). Shared by the tests instead of a login each: the second factor's
 * code is good once, and tests run in parallel.
 */
export function asAnalyst(): { cookie: string } {
  return { cookie: enrolledStaff(String(test.info().project.metadata.server), 'analyst').cookie };
}

/** An analyst sends the shopkeeper's (or a guarantor's) signing link from the back office. */
export async function sendSigningLink(
  request: APIRequestContext,
  userId: string,
  data: { person_type: 'titular' | 'collateral'; aval_id?: string } = { person_type: 'titular' },
): Promise<void> {
  const res = await request.post(`/api/backoffice/applications/${userId}/contract-links`, {
    data,
    headers: asAnalyst(),
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Counts the page's layout shifts (CLS, inputs aside) from its first paint; call before `goto`. Answers a reader. */
export async function countLayoutShifts(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const state = window as unknown as { shifts: number };
    state.shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) state.shifts += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { shifts: number }).shifts);
}
