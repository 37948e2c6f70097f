import { cedulaCheckDigit, type PartnerScope } from '@provee/domain';
import { and, desc, eq, like } from 'drizzle-orm';
import { smsOutbox } from '../db/schema.js';
import type { App } from '../types.js';
import { createApplication, userAuth } from './factories.js';
import { createPhone } from './phone.js';
import { consentWithOfferedPin } from './signer.js';
import { staffSession } from './staff.js';

/**
 * The lender's side in tests (issue 30), through the product's own calls: an application taken to
 * PENDING_APPROVAL by the shopkeeper's and a guarantor's journey, and partner keys and webhook
 * endpoints made by an admin in the back office. The app runs with NIP_PREFILL=true and a
 * BUREAU_SYNC_WAIT_MS long enough for the simulator's answer (the bureau decides while the PIN waits).
 */

/** The bureau simulator's guarantor with a strong history (Dominican cédula). */
const APPROVED_GUARANTOR = (() => {
  const ten = '9990000001';
  return `${ten}${cedulaCheckDigit(ten)}`;
})();

async function expectOk(label: string, answer: { statusCode: number; body: string }) {
  if (answer.statusCode !== 200) throw new Error(`${label}: ${answer.statusCode} ${answer.body}`);
}

/**
 * A shopkeeper through the journey to PENDING_APPROVAL: pre-approved at the PIN, a password, a
 * partner guarantor named and consenting with their PIN in person, approved by the bureau.
 */
export async function pendingApprovalApplication(app: App) {
  const user = await createApplication(app);
  const auth = userAuth(app, user);
  const consent = await consentWithOfferedPin(app, user);
  if (consent.json().data?.next_step !== 'PASSWORD') throw new Error(`not pre-approved: ${consent.body}`);
  const call = (method: 'PUT' | 'POST', path: string, payload?: object) =>
    app.inject({ method, url: `/api/v1/users/${user.id}/SK${path}`, headers: auth, ...(payload ? { payload } : {}) });
  await expectOk('password', await call('PUT', '/password', { password: '480931', password_confirmation: '480931' }));
  const guarantorPhone = createPhone(app.config.COUNTRY);
  await expectOk(
    'guarantor',
    await call('POST', '/avals', {
      aval_type: 'PARTNER',
      name: 'Ramón Antonio Pérez',
      phone_number: guarantorPhone,
      tax_payer_id: APPROVED_GUARANTOR,
    }),
  );
  const sent = await call('POST', `/aval/nip?to=${guarantorPhone}`);
  await expectOk('guarantor PIN', sent);
  const done = await call('PUT', `/aval/nip?to=${guarantorPhone}`, { nip: sent.json().data.default_nip });
  if (done.json().data?.next_step !== 'PENDING_APPROVAL') throw new Error(`not pending approval: ${done.body}`);
  return { ...user, auth, guarantorPhone };
}

/** An admin in the back office, with a recent second factor (credentials need one). */
export async function adminSession(app: App) {
  return (await staffSession(app, 'admin')).headers;
}

/** A partner key an admin creates in the back office: its token (shown once) and its id. */
export async function createPartnerKey(
  app: App,
  scopes: PartnerScope[],
  options: { headers?: { cookie: string }; expiresInDays?: number | null } = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/backoffice/partner-keys',
    headers: options.headers ?? (await adminSession(app)),
    payload: { name: `Core bancario ${scopes.join(' ')}`, scopes, expires_in_days: options.expiresInDays ?? 30 },
  });
  await expectOk('partner key', res);
  const { key, token } = res.json().data as { key: { id: string }; token: string };
  return { id: key.id, token };
}

/** A webhook endpoint an admin adds in the back office: its id and signing secret (shown once). */
export async function createWebhookEndpoint(
  app: App,
  url: string,
  options: { headers?: { cookie: string }; eventTypes?: string[] } = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/backoffice/webhook-endpoints',
    headers: options.headers ?? (await adminSession(app)),
    payload: { url, description: 'Receptor de prueba', event_types: options.eventTypes ?? [] },
  });
  await expectOk('webhook endpoint', res);
  const { endpoint, secret } = res.json().data as { endpoint: { id: string }; secret: string };
  return { id: endpoint.id, secret };
}

/** The link of the latest SMS to this number (E.164) whose text has `marker`, and its token. */
export async function lastSmsLink(app: App, toE164: string, marker: string) {
  const [sms] = await app.db
    .select()
    .from(smsOutbox)
    .where(and(eq(smsOutbox.to, toE164), like(smsOutbox.body, `%${marker}%`)))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  if (!sms) return undefined;
  const url = new URL(/https?:\/\/\S+/.exec(sms.body)![0]);
  return { url, token: url.searchParams.get('token')! };
}
