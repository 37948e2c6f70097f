import { createHash } from 'node:crypto';
import { cedulaCheckDigit, toE164 } from '@provee/domain';
import { and, desc, eq, like } from 'drizzle-orm';
import {
  businessAddresses,
  contractSigners,
  identityDocuments,
  identityVerifications,
  smsOutbox,
} from '../../../src/db/schema.js';
import { answerSimulatedChecks, flushSms } from '../../../src/test/jobs.js';
import { createJpeg, seedApplication, userAuth } from '../../../src/test/factories.js';
import { multipart } from '../../../src/test/multipart.js';
import { createPhone, lastSmsCode } from '../../../src/test/phone.js';
import {
  authenticatorCode,
  createStaffMember,
  rememberAuthenticator,
  STAFF_PASSWORD,
  staffLogin,
} from '../../../src/test/staff.js';
import type { App } from '../../../src/types.js';

export const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let serial = 0;
/** A fresh cédula per call (one application per person); the simulators' test prefixes 999… avoided. */
export const newCedula = () =>
  cedula(`4${String(((serial += 1) * 7_919 + Math.floor(Math.random() * 1e6) * 1_000) % 1e9).padStart(9, '0')}`);
let reviews = 0;
/** The identity simulator sends a check with this prefix to a person's review (UNDER_REVIEW): 1,000 of them. */
export const underReviewCedula = () => cedula(`9990007${String((reviews += 1) % 1000).padStart(3, '0')}`);
let refusals = 0;
/** The identity simulator refuses every check of a tax id with this prefix (REJECTED): 1,000 of them. */
export const rejectedCedula = () => cedula(`9990006${String((refusals += 1) % 1000).padStart(3, '0')}`);

export type Headers = Record<string, string>;
export interface Shopkeeper {
  id: string;
  phone: string;
  phoneE164: string;
  auth: Headers;
}

const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

/**
 * The people and data the fuzzed requests need, made the way the product makes them (the step
 * engine's seed, then the real routes), each fresh when a request may change it.
 */
export class World {
  private ipCount = 0;
  private admin: Headers | undefined;

  constructor(readonly app: App) {}

  /** A different client address per request: the per-IP limits stay out of the way of validation. */
  nextIp(): string {
    this.ipCount += 1;
    const n = this.ipCount;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  phoneToken(phone: string): Headers {
    return bearer(this.app.tokens.issue({ kind: 'phone', phoneE164: toE164(this.app.config.COUNTRY, phone) }).token);
  }

  async shopkeeper(
    nextStep: string,
    options: { complete?: boolean; taxId?: string; status?: string } = {},
  ): Promise<Shopkeeper> {
    const phone = createPhone();
    const user = await seedApplication(this.app, {
      phone,
      nextStep,
      status: options.status,
      complete: options.complete === false ? undefined : { taxId: options.taxId ?? newCedula() },
    });
    return { id: user.id, phone, phoneE164: user.phoneE164, auth: userAuth(this.app, { id: user.id, phone }) };
  }

  inject(call: { method: 'GET' | 'POST' | 'PUT'; url: string; headers?: Headers; payload?: unknown }) {
    return this.app.inject({
      method: call.method,
      url: call.url,
      headers: call.headers ?? {},
      remoteAddress: this.nextIp(),
      ...(call.payload === undefined ? {} : { payload: call.payload as string }),
    });
  }

  private async expectOk(response: { statusCode: number; body: string }, what: string) {
    if (response.statusCode >= 300) throw new Error(`${what}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  }

  /**
   * An administrator's session (staff routes): checked before each use, since a fuzzed request may
   * have ended it (DELETE instead of GET on /api/backoffice/session) or it went idle; logged in again then.
   */
  async adminSession(): Promise<Headers> {
    if (this.admin) {
      const current = await this.inject({ method: 'GET', url: '/api/backoffice/session', headers: this.admin });
      // Alive, and its second factor recent enough for the routes that ask for one.
      const stepUpUntil = current.statusCode === 200 ? current.json().data.step_up_until : null;
      if (stepUpUntil && new Date(stepUpUntil).getTime() > this.app.clock().getTime() + 60_000) return this.admin;
    }
    this.admin = await this.freshSession('admin');
    return this.admin;
  }

  private members = new Map<string, { email: string }>();

  /** A staff account of this role (one per role, created once). */
  async staffMember(role: 'admin' | 'analyst' | 'advisor') {
    if (!this.members.has(role)) this.members.set(role, await createStaffMember(this.app, role));
    return this.members.get(role)!;
  }

  /**
   * An analyst with an authenticator app and recovery codes, past their password: the cookie of the
   * login waiting for its second factor, and the codes.
   */
  async waitingForSecondFactor(): Promise<{ cookie: string; recoveryCodes: string[] }> {
    const member = await createStaffMember(this.app, 'analyst');
    const first = await this.passwordStep(member.email);
    const enrolling = { cookie: first };
    const started = await this.inject({ method: 'POST', url: '/api/backoffice/me/totp', headers: enrolling });
    await this.expectOk(started, 'authenticator enrolment');
    rememberAuthenticator(member.id, started.json().data.secret);
    const confirmed = await this.inject({
      method: 'POST',
      url: '/api/backoffice/me/totp/confirm',
      headers: enrolling,
      payload: { code: authenticatorCode(this.app, member.id) },
    });
    await this.expectOk(confirmed, 'authenticator confirmation');
    return { cookie: await this.passwordStep(member.email), recoveryCodes: confirmed.json().data.recovery_codes };
  }

  /** The cookie of a login past its password (waiting for the second factor or its enrolment). */
  private async passwordStep(email: string): Promise<string> {
    const password = await this.inject({
      method: 'POST',
      url: '/api/backoffice/session',
      payload: { email, password: STAFF_PASSWORD },
    });
    await this.expectOk(password, 'password step');
    return `provee_staff=${password.cookies.find((c) => c.name === 'provee_staff')!.value}`;
  }

  /** A new advisor who started enrolling an authenticator app, and the code the app shows. */
  async enrollingAdvisor(): Promise<{ headers: Headers; code: string }> {
    const member = await createStaffMember(this.app, 'advisor');
    const headers = await staffLogin(this.app, member.email);
    const started = await this.inject({ method: 'POST', url: '/api/backoffice/me/totp', headers });
    await this.expectOk(started, 'authenticator enrolment');
    rememberAuthenticator(member.id, started.json().data.secret);
    return { headers, code: authenticatorCode(this.app, member.id) };
  }

  /** The token of a password link an admin issued for a new account. */
  async passwordLinkToken(): Promise<string> {
    const member = await createStaffMember(this.app, 'advisor');
    const issued = await this.inject({
      method: 'POST',
      url: `/api/backoffice/staff/${member.id}/password-link`,
      headers: await this.adminSession(),
    });
    await this.expectOk(issued, 'password link');
    return new URLSearchParams(new URL(issued.json().data.url).hash.slice(1)).get('token')!;
  }

  /** A new session (a route that ends or changes it needs its own). */
  async freshSession(role: 'admin' | 'analyst' | 'advisor' = 'admin'): Promise<Headers> {
    return staffLogin(this.app, (await this.staffMember(role)).email);
  }

  /** A proven phone's SMS code, sent and read from the outbox (PUT /users/code). */
  async smsCode(phone: string): Promise<string> {
    const sent = await this.inject({
      method: 'POST',
      url: '/api/v1/users/code',
      payload: { phone_number: phone },
    });
    await this.expectOk(sent, 'code request');
    return lastSmsCode(this.app, phone);
  }

  /** The consent PIN of a shopkeeper at ACCOUNT_NIP (NIP_PREFILL hands it back). */
  async consentPin(user: Shopkeeper): Promise<string> {
    const sent = await this.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers: user.auth });
    await this.expectOk(sent, 'consent PIN');
    return sent.json().data.default_nip as string;
  }

  /** A shopkeeper pre-approved through the real PIN consent and bureau query (PASSWORD/IN_PROGRESS). */
  async approved(taxId = newCedula()): Promise<Shopkeeper> {
    const user = await this.shopkeeper('ACCOUNT_NIP', { taxId });
    const nip = await this.consentPin(user);
    const res = await this.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/nip`,
      headers: user.auth,
      payload: { nip },
    });
    await this.expectOk(res, 'consent');
    return user;
  }

  /** A guarantor named through the shopkeeper's form: the application waits at PARTNER_NIP. */
  async withGuarantor(): Promise<Shopkeeper & { avalId: string; avalPhone: string; avalAuth: Headers }> {
    const user = await this.shopkeeper('INVENTORY');
    const avalPhone = createPhone();
    const res = await this.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/SK/avals`,
      headers: user.auth,
      payload: { aval_type: 'PARTNER', name: 'Pedro Aval', phone_number: avalPhone, tax_payer_id: newCedula() },
    });
    await this.expectOk(res, 'guarantor');
    const avalId = res.json().data.aval.id as string;
    const avalAuth = bearer(
      this.app.tokens.issue({
        kind: 'aval',
        avalId,
        userId: user.id,
        phoneE164: toE164(this.app.config.COUNTRY, avalPhone),
      }).token,
    );
    return { ...user, avalId, avalPhone, avalAuth };
  }

  private partner: Headers | undefined;

  /** A partner key with every scope, as an admin makes it in the back office: the bearer of the lender's systems. */
  async partnerKey(): Promise<Headers> {
    if (this.partner) return this.partner;
    const res = await this.inject({
      method: 'POST',
      url: '/api/backoffice/partner-keys',
      headers: await this.adminSession(),
      payload: {
        name: 'Core bancario',
        scopes: ['applications:read', 'personal_data:read', 'decisions:write', 'documents:read'],
        expires_in_days: 30,
      },
    });
    await this.expectOk(res, 'partner key');
    this.partner = bearer(res.json().data.token);
    return this.partner;
  }

  /** A webhook endpoint an admin added (nothing listens there: its sends wait). */
  async webhookEndpoint(): Promise<string> {
    const res = await this.inject({
      method: 'POST',
      url: '/api/backoffice/webhook-endpoints',
      headers: await this.adminSession(),
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    await this.expectOk(res, 'webhook endpoint');
    return res.json().data.endpoint.id as string;
  }

  /** A draft of the credit policy begun by the analyst (its author): its id, revision and document. */
  async policyDraft(): Promise<{ id: string; revision: number; document: Record<string, unknown>; author: Headers }> {
    const author = await this.freshSession('analyst');
    const res = await this.inject({ method: 'POST', url: '/api/backoffice/policies', headers: author, payload: {} });
    await this.expectOk(res, 'policy draft');
    const { id, revision, document } = res.json().data;
    const { version: _version, ...body } = document as Record<string, unknown>;
    return { id, revision, document: body, author };
  }

  /** A version the analyst wrote and an admin published in shadow (not live): its id. */
  async publishedPolicy(): Promise<string> {
    const draft = await this.policyDraft();
    await this.post(
      `/api/backoffice/policies/${draft.id}/publish`,
      { revision: draft.revision, mode: 'shadow' },
      await this.adminSession(),
    );
    return draft.id;
  }

  /** A signing link sent from the back office: its token, as the SMS carries it. */
  async signingLink(user: Shopkeeper): Promise<Headers> {
    const res = await this.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${user.id}/contract-links`,
      headers: await this.adminSession(),
      payload: { person_type: 'titular' },
    });
    await this.expectOk(res, 'signing link');
    await flushSms(this.app);
    const [sms] = await this.app.db
      .select()
      .from(smsOutbox)
      .where(and(eq(smsOutbox.to, user.phoneE164), like(smsOutbox.body, '%send-contract-sign%')))
      .orderBy(desc(smsOutbox.id))
      .limit(1);
    const url = new URL(/https?:\/\/\S+/.exec(sms!.body)![0]);
    return bearer(url.searchParams.get('token')!);
  }

  photos() {
    return {
      id_front: createJpeg({ width: 640, height: 400 }),
      id_back: createJpeg({ width: 640, height: 400 }),
      selfie: createJpeg({ width: 360, height: 480 }),
    };
  }

  /** The three photos sent one at a time, as the widget sends them (issue 27): their SHA-256 by kind. */
  async sentPhotos(user: Shopkeeper, signer: Headers): Promise<Record<'id_front' | 'id_back' | 'selfie', string>> {
    const hashes: Record<string, string> = {};
    for (const [kind, bytes] of Object.entries(this.photos())) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const res = await this.inject({
        method: 'PUT',
        url: `/api/v1/users/SK/${user.id}/identity-photos/${kind}/${sha256}`,
        headers: { ...signer, 'content-type': 'image/jpeg' },
        payload: Buffer.from(bytes),
      });
      await this.expectOk(res, `identity photo ${kind}`);
      hashes[kind] = sha256;
    }
    return hashes as Record<'id_front' | 'id_back' | 'selfie', string>;
  }

  /** The identity photos uploaded and the simulated verifier's answer given. */
  async verified(user: Shopkeeper, signer: Headers): Promise<void> {
    const form = multipart(this.photos(), { person_type: 'titular', verification_type: 'VERIFICATION' });
    const res = await this.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${user.id}/identity-documents`,
      headers: { ...signer, ...form.headers },
      payload: form.payload,
    });
    await this.expectOk(res, 'identity photos');
    // Every check due, not the first 20: the fuzzed uploads leave many waiting before this one.
    await answerSimulatedChecks(this.app);
  }

  async signer(userId: string) {
    const [row] = await this.app.db.select().from(contractSigners).where(eq(contractSigners.userId, userId));
    return row!;
  }

  async verification(userId: string) {
    const [row] = await this.app.db
      .select({ id: identityVerifications.id, documentId: identityDocuments.id })
      .from(identityVerifications)
      .innerJoin(contractSigners, eq(contractSigners.id, identityVerifications.signerId))
      .innerJoin(identityDocuments, eq(identityDocuments.verificationId, identityVerifications.id))
      .where(eq(contractSigners.userId, userId))
      .limit(1);
    return row!;
  }

  /** A neighbourhood the shopkeeper typed ('Mi sector no aparece'), waiting for the back office. */
  async typedNeighbourhood(userId: string): Promise<void> {
    await this.app.db
      .update(businessAddresses)
      .set({ neighborhood: 'Detrás del play', neighborhoodTyped: true })
      .where(eq(businessAddresses.userId, userId));
  }

  async get(url: string, headers: Headers = {}) {
    const res = await this.inject({ method: 'GET', url, headers });
    await this.expectOk(res, `GET ${url}`);
    return res.json();
  }

  async post(url: string, payload: unknown, headers: Headers = {}) {
    const res = await this.inject({ method: 'POST', url, headers, payload });
    await this.expectOk(res, `POST ${url}`);
    return res.json();
  }
}
