import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

/**
 * Staff second factors in the e2e run, used the way a person uses them: an authenticator app
 * (otpauth computes what the phone would show from the secret the enrolment screen gave) and the
 * back office's own screens. A code is accepted once: the server refuses one whose 30-second step
 * is not later than the last one used, so a second code of the same account waits for the next step.
 */
const PERIOD_MS = 30_000;

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, '')), algorithm: 'SHA1', digits: 6, period: 30 });

/** The last step this process gave a code for, per secret (other processes may have used later ones). */
const lastStep = new Map<string, number>();

/**
 * The code the app shows now, from a step this process has not used yet (waiting for the next one
 * when it has, as a person waits for the app to change).
 */
export async function authenticatorCode(secret: string): Promise<string> {
  const key = secret.replace(/\s+/g, '');
  for (;;) {
    const step = Math.floor(Date.now() / PERIOD_MS);
    if (step > (lastStep.get(key) ?? -1)) {
      lastStep.set(key, step);
      return totpOf(key).generate({ timestamp: step * PERIOD_MS });
    }
    await new Promise((resolve) => setTimeout(resolve, (step + 1) * PERIOD_MS - Date.now() + 200));
  }
}

/** Marks the current step as used (another process used it: the server said so). */
export function stepWasUsed(secret: string): void {
  lastStep.set(secret.replace(/\s+/g, ''), Math.floor(Date.now() / PERIOD_MS));
}

/** `provee_staff=…` from a Set-Cookie header (the session id changes at every login step). */
export function staffCookie(setCookie: string | null, previous?: string): string {
  const match = /(?:^|,\s*)provee_staff=([^;]+)/.exec(setCookie ?? '');
  if (match) return `provee_staff=${match[1]}`;
  if (previous) return previous;
  throw new Error('the server set no staff session cookie');
}

export interface EnrolledStaff {
  /** The authenticator app's secret (base32). */
  secret: string;
  /** The session this first login opened: active, its Cookie header. */
  cookie: string;
  recoveryCodes: string[];
}

/**
 * A first login of an analyst or an admin through the HTTP API, as the login screens make it: the
 * password, then (stage 'enrol') a new authenticator secret confirmed by its first code.
 */
export async function enrolThroughApi(baseUrl: string, email: string, password: string): Promise<EnrolledStaff> {
  const call = async (path: string, cookie?: string, body: unknown = {}) => {
    const res = await fetch(`${baseUrl}/api/backoffice${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return {
      cookie: staffCookie(res.headers.get('set-cookie'), cookie),
      data: ((await res.json()) as { data: never }).data,
    };
  };
  const login = await call('/session', undefined, { email, password });
  const { stage } = login.data as { stage: string };
  if (stage !== 'enrol') throw new Error(`${email}: a first login should enrol a second factor (stage ${stage})`);
  const started = await call('/me/totp', login.cookie);
  const { secret } = started.data as { secret: string };
  const confirmed = await call('/me/totp/confirm', started.cookie, { code: await authenticatorCode(secret) });
  const { recovery_codes: recoveryCodes } = confirmed.data as { recovery_codes: string[] };
  return { secret, cookie: confirmed.cookie, recoveryCodes };
}

/** What the global setup enrolled on each server, for the workers (process.env reaches them). */
export type EnrolledByServer = Record<string, Record<string, EnrolledStaff>>;
export const ENROLLED_ENV = 'E2E_ENROLLED_STAFF';

export function enrolledStaff(server: string, role: string): EnrolledStaff {
  const all = JSON.parse(process.env[ENROLLED_ENV] ?? '{}') as EnrolledByServer;
  const found = all[server]?.[role];
  if (!found) throw new Error(`the global setup enrolled no ${role} on the '${server}' server`);
  return found;
}

const CODE_LABEL = 'Código de 6 dígitos de tu aplicación';

/**
 * Gives the app's code where the screen asks for it (the login's factor step, or 'Confirma que
 * eres tú' inside `scope`). When another process used this step already, the server refuses it:
 * wait for the next step and try once more.
 */
export async function giveAuthenticatorCode(page: Page, secret: string, scope = page.locator('body')): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    await scope.getByLabel(CODE_LABEL).fill(await authenticatorCode(secret));
    await scope.getByRole('button', { name: 'Confirmar' }).click();
    const refused = scope.getByText('El código no es correcto o ya se usó', { exact: false });
    let outcome = 'pending';
    await expect
      .poll(
        async () =>
          (outcome = (await refused.isVisible())
            ? 'refused'
            : (await scope.getByLabel(CODE_LABEL).count()) === 0
              ? 'accepted'
              : 'pending'),
        { timeout: 15_000 },
      )
      .not.toBe('pending');
    if (outcome === 'accepted') return;
    stepWasUsed(secret);
  }
  throw new Error('the authenticator code was refused twice');
}

/** The password, then the second factor if the account has one (the login screen's two steps). */
export async function logInWithCode(
  page: Page,
  account: { email: string; password: string; name: string },
  secret: string | null,
): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  if (secret) {
    await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
    await giveAuthenticatorCode(page, secret);
  }
  await expect(page.getByText(account.name).first()).toBeVisible();
}

/**
 * The person signs in at the company's identity provider as `email` (its next authorization
 * request): the global setup's provider is told through its control address (e2e/sso-provider.ts).
 */
export async function signInAtProvider(email: string): Promise<void> {
  const res = await fetch(`${process.env.E2E_SSO_CONTROL_URL}/sign-in-as`, {
    method: 'POST',
    body: JSON.stringify({ email }),
  });
  if (res.status !== 204) throw new Error(`the test identity provider refused: ${res.status}`);
}
