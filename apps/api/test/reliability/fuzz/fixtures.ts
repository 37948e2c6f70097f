import { createHash, createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { anonymousId } from '@provee/domain';
import { SIGNATURE_HEADER } from '../../../src/providers/reverse-otp/simulator.js';
import { TWILIO_SIGNATURE_HEADER, twilioSignature } from '../../../src/providers/reverse-otp/twilio.js';
import { METAMAP_SIGNATURE_HEADER } from '../../../src/providers/identity/metamap.js';
import { eq } from 'drizzle-orm';
import { outgoingMessages, users } from '../../../src/db/schema.js';
import { sendApplicantReminders } from '../../../src/modules/reminders/index.js';
import { createPng } from '../../../src/test/factories.js';
import { createPhone } from '../../../src/test/phone.js';
import { CATALOGUE_ADDRESS } from '../../../src/test/registration.js';
import { createStaffMember, STAFF_PASSWORD, staffLogin } from '../../../src/test/staff.js';
import type { App } from '../../../src/types.js';
import type { JsonSchema, Parameter } from './operations.js';
import type { MultipartBody } from './requests.js';
import { newCedula, rejectedCedula, underReviewCedula, type Headers, type World } from './world.js';

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** One request the operation's owner would send, with their credentials. */
export interface Base {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** The JSON body (undefined: none); a getter gives each request its own (a vendor's delivery id). */
  body?: unknown;
  /** The body's fields are sent as a form (application/x-www-form-urlencoded), as Twilio posts them. */
  form?: boolean;
  multipart?: MultipartBody;
  /** A body sent as it is, with its content type (an identity photo). */
  raw?: { payload: Buffer; contentType: string };
  headers?: Headers;
  /** Webhooks: the vendor's signature over exactly the bytes sent. */
  sign?: (payload: Buffer, url: string) => Headers;
  /** Another instance on the same database (a vendor's configuration). */
  app?: App;
}

export interface Fixture {
  /** Shown next to the operation when it has several (e.g. the vendor of a webhook). */
  variant?: string;
  prepare(world: World, apps: { vendor: App }): Promise<Base>;
  /**
   * What the unmodified request gets when that is not a 2xx: the handler's own answer, reached past
   * authentication and validation (so the fuzzed requests reach the same place).
   */
  control?: { status: number; code: string; why: string };
  /** The route's own body limit (the app's BODY_LIMIT_BYTES otherwise). */
  bodyLimit?: number;
  /**
   * One base serves every request: the route reads, or what it writes (a record, an event) changes
   * nothing the next request depends on. Otherwise a fresh base follows every request that changed
   * something, so the next one reaches the same checks.
   */
  reusable?: boolean;
  /** A success ends the caller's credentials (logout): a fresh caller after each. */
  spendsCredentials?: boolean;
  /** A base serves this many random requests at most (what they use up, e.g. a signer's attempts). */
  refreshEvery?: number;
}

/** Routes the OpenAPI document leaves out (test-mode tools, the document itself), described here. */
export interface HiddenOperation {
  method: string;
  path: string;
  query?: Parameter[];
  body?: JsonSchema;
}

const text = (maxLength: number, minLength?: number): JsonSchema => ({
  type: 'string',
  maxLength,
  ...(minLength ? { minLength } : {}),
});
export const HIDDEN_OPERATIONS: HiddenOperation[] = [
  { method: 'GET', path: '/api/openapi.json' },
  { method: 'GET', path: '/partner/v1/openapi.json' },
  // The operators' probes and metrics (docs/OPERATIONS.md), outside the API's document.
  { method: 'GET', path: '/livez' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/dev/dev.css' },
  { method: 'GET', path: '/dev/outbox', query: [{ name: 'sent', required: false, schema: { type: 'string' } }] },
  {
    method: 'POST',
    path: '/dev/outbox/reply',
    body: {
      type: 'object',
      properties: {
        from: { type: 'string', pattern: '^\\+\\d{8,15}$' },
        channel: { type: 'string', enum: ['whatsapp', 'sms'] },
        text: text(1600, 1),
        button: { type: 'boolean' },
      },
      required: ['from', 'text'],
    },
  },
  {
    method: 'POST',
    path: '/dev/reminders/run',
    body: {
      type: 'object',
      properties: {
        phone_number: { type: 'string', pattern: '^\\d{10}$' },
        minutes_ahead: { type: 'integer', minimum: 0, maximum: 43200 },
      },
      required: ['phone_number', 'minutes_ahead'],
    },
  },
  { method: 'GET', path: '/dev/outbox.json', query: [{ name: 'to', required: false, schema: text(20) }] },
  { method: 'GET', path: '/dev/phone', query: [{ name: 'sent', required: false, schema: { type: 'string' } }] },
  {
    method: 'POST',
    path: '/dev/reverse-otp/inbound',
    body: {
      type: 'object',
      properties: { from: text(32, 1), text: text(1000, 1) },
      required: ['from', 'text'],
    },
  },
];

const GEO = JSON.stringify({ latitude: 18.4861, longitude: -69.9312, accuracy: 20, timestamp: 1795000000000 });
/** The signature pad's export: a PNG in base64. */
const SIGNATURE_PNG = Buffer.from(createPng({ width: 280, height: 120 })).toString('base64');
const isoNow = () => new Date().toISOString();
const today = () => new Date().toISOString().slice(0, 10);
/** The fields of MetaMap's "review needed" delivery the product reads (providers/identity/fixtures). */
const METAMAP_REVIEW_NEEDED = (() => {
  const recorded = JSON.parse(
    readFileSync(
      new URL('../../../src/providers/identity/fixtures/verification-completed-review-needed.json', import.meta.url),
      'utf8',
    ),
  ) as Record<string, unknown>;
  const { eventName, identityStatus, flowId, timestamp, matiDashboardUrl } = recorded;
  return { eventName, identityStatus, flowId, timestamp, matiDashboardUrl };
})();

/** The simulator's inbound message, signed as the vendor signs it (HMAC over the timestamp and the raw body). */
const simulatorSign = (app: App) => (payload: Buffer) => ({
  [SIGNATURE_HEADER]: app.reverseOtp.sign!(payload.toString('utf8')),
});

/** A shopkeeper's open privacy request of this kind (issue 31), filed through their own API: its id. */
async function privacyRequest(world: World, kind: string): Promise<string> {
  const user = await world.shopkeeper('ACCOUNT_NIP', { complete: true });
  const filed = (await world.post(
    `/api/v1/users/${user.id}/SK/privacy/requests`,
    {
      kind,
      reason: 'Quiero ejercer mi derecho sobre mis datos.',
      ...(kind === 'rectification' ? { field: 'name' } : {}),
    },
    user.auth,
  )) as { data: { id: string } };
  return filed.data.id;
}

/** Every operation of the product and how its owner calls it. */
export const FIXTURES: Record<string, Fixture | Fixture[]> = {
  // ---- public, no caller ----
  'GET /api/health': { reusable: true, prepare: async () => ({}) },
  'GET /api/v1/config': { reusable: true, prepare: async () => ({}) },
  'GET /api/v1/ip': { reusable: true, prepare: async () => ({}) },
  'GET /api/v1/consents/text': { reusable: true, prepare: async () => ({ query: { person_type: 'titular' } }) },
  'GET /api/v1/states': { reusable: true, prepare: async () => ({}) },
  'GET /api/v1/states/{id}/cities': {
    reusable: true,
    prepare: async (world) => {
      const states = (await world.get('/api/v1/states')).data as { id: number }[];
      return { params: { id: String(states[0]!.id) } };
    },
  },
  'GET /api/v1/cities': { reusable: true, prepare: async () => ({ query: { 'only-allowed': 'true' } }) },
  'GET /api/v1/cities/{id}/neighborhoods': {
    reusable: true,
    prepare: async (world) => {
      const cities = (await world.get('/api/v1/cities?only-allowed=true')).data as { id: number }[];
      return { params: { id: String(cities[0]!.id) } };
    },
  },
  'GET /api/v1/zip-codes/{code}': {
    reusable: true,
    control: {
      status: 404,
      code: 'ZIP_CODE_NOT_FOUND',
      why: 'the Dominican catalogue has no zip codes (ONE sectors): every code is looked up and not found',
    },
    prepare: async () => ({ params: { code: '10101' } }),
  },
  'GET /api/v1/business-types': { reusable: true, prepare: async () => ({}) },
  'GET /api/v1/sales-ranges': { reusable: true, prepare: async () => ({}) },
  'GET /api/v1/addresses/search': { reusable: true, prepare: async () => ({ query: { q: 'Gazcue' } }) },
  'GET /api/v1/addresses/{placeId}': {
    reusable: true,
    prepare: async (world) => {
      const found = (await world.get('/api/v1/addresses/search?q=Gazcue')).data as { place_id: string }[];
      return { params: { placeId: found[0]!.place_id } };
    },
  },
  'POST /api/v1/client-errors': {
    reusable: true,
    prepare: async () => ({
      body: {
        level: 'error',
        method: 'GET',
        path: '/api/v1/users',
        status: 502,
        code: 'BAD_GATEWAY',
        message: 'falló',
        request_id: randomUUID(),
      },
    }),
  },

  // ---- phone proof ----
  'POST /api/v1/users/code': {
    prepare: async () => {
      const phone = createPhone();
      return { body: { phone_number: phone, anonymous_id: anonymousId(phone) } };
    },
  },
  'PUT /api/v1/users/code': {
    prepare: async (world) => {
      const phone = createPhone();
      return { body: { phone_number: phone, code: await world.smsCode(phone), anonymous_id: anonymousId(phone) } };
    },
  },
  'POST /api/v1/users/reverse-otp': {
    prepare: async () => {
      const phone = createPhone();
      return { body: { phone_number: phone, anonymous_id: anonymousId(phone), ip_address: '190.0.0.1' } };
    },
  },
  'PUT /api/v1/users/reverse-otp': {
    prepare: async (world) => {
      const phone = createPhone();
      const started = await world.post('/api/v1/users/reverse-otp', { phone_number: phone });
      return { body: { session_id: started.data.session_id } };
    },
  },
  'POST /api/v1/webhooks/reverse-otp/{provider}': [
    {
      variant: 'simulator',
      reusable: true,
      prepare: async (world) => {
        const phone = createPhone();
        const started = await world.post('/api/v1/users/reverse-otp', { phone_number: phone });
        return {
          params: { provider: 'simulator' },
          body: {
            event: 'message.received',
            data: {
              from: `+1${phone}`,
              to: world.app.reverseOtp.destination,
              text: started.data.message,
              received_at: isoNow(),
            },
          },
          sign: simulatorSign(world.app),
        };
      },
    },
    {
      variant: 'twilio (form body)',
      reusable: true,
      prepare: async (world, { vendor }) => {
        const phone = createPhone();
        const started = await world.post('/api/v1/users/reverse-otp', { phone_number: phone });
        const token = vendor.config.TWILIO_AUTH_TOKEN!;
        return {
          app: vendor,
          params: { provider: 'twilio' },
          body: { MessageSid: `SM${randomUUID().replace(/-/g, '')}`, From: `+1${phone}`, Body: started.data.message },
          form: true,
          // Twilio posts a form; the suite sends the base as a form and signs what it sends.
          sign: (payload, url) => ({
            [TWILIO_SIGNATURE_HEADER]: twilioSignature(
              token,
              `${vendor.config.PUBLIC_BASE_URL}${url}`,
              new URLSearchParams(payload.toString('utf8')),
            ),
          }),
        };
      },
    },
  ],

  // ---- the shopkeeper (phone proof, then their own token) ----
  'GET /api/v1/users': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('TAX_ACCOUNT');
      return {
        query: { phone_number: user.phone, anonymous_id: anonymousId(user.phone) },
        headers: world.phoneToken(user.phone),
      };
    },
  },
  'GET /api/v1/users/{id}/{type}': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('INVENTORY');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'POST /api/v2/users': {
    prepare: async (world) => {
      const phone = createPhone();
      return {
        headers: world.phoneToken(phone),
        body: {
          account_type_id: 'SK',
          name: 'María',
          lastname: 'Peña',
          maternal_lastname: 'Núñez',
          dob: '1985-02-28',
          length_of_residency_in_years: 4,
          marital_status: 'MARRIED',
          phone_number: phone,
          utm_source: 'radio',
          anonymous_id: anonymousId(phone),
          kiban_flow_version_id: 3,
        },
      };
    },
  },
  'POST /api/v1/users/{id}/{type}/tax_info': {
    prepare: async (world) => {
      const user = await world.shopkeeper('TAX_ACCOUNT', { complete: false });
      return { params: { id: user.id, type: 'SK' }, headers: user.auth, body: { tax_payer_id: newCedula() } };
    },
  },
  'POST /api/v1/users/{id}/{type}/businesses/address': {
    prepare: async (world) => {
      const user = await world.shopkeeper('BUSINESS_ADDRESS');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth, body: CATALOGUE_ADDRESS };
    },
  },
  'POST /api/v1/users/{id}/{type}/businesses': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ABOUT_STORE');
      const ranges = (await world.get('/api/v1/sales-ranges')).data.ranges as { id: number }[];
      const types = (await world.get('/api/v1/business-types')).data as string[];
      return {
        params: { id: user.id, type: 'SK' },
        headers: user.auth,
        body: {
          name: 'Colmado Prueba',
          business_type: types[0]!,
          business_type_other: '',
          sales_average_range_id: ranges.at(-1)!.id,
          business_age: 3,
        },
      };
    },
  },
  // Going back (issue 27): what the steps saved, and their corrections before the business step.
  'GET /api/v1/users/{id}/{type}/registration': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('ABOUT_STORE');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'PUT /api/v1/users/{id}/{type}/personal-data': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ABOUT_STORE');
      return {
        params: { id: user.id, type: 'SK' },
        headers: user.auth,
        body: {
          name: 'María José',
          lastname: 'Peña',
          maternal_lastname: 'Núñez',
          dob: '1984-03-01',
          length_of_residency_in_years: 3,
          marital_status: 'SINGLE',
        },
      };
    },
  },
  'PUT /api/v1/users/{id}/{type}/tax_info': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ABOUT_STORE');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth, body: { tax_payer_id: newCedula() } };
    },
  },
  'PUT /api/v1/users/{id}/{type}/businesses/address': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ABOUT_STORE');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth, body: CATALOGUE_ADDRESS };
    },
  },
  'POST /api/v1/users/{id}/{type}/nip': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'PUT /api/v1/users/{id}/{type}/nip': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP');
      const nip = await world.consentPin(user);
      return { params: { id: user.id, type: 'SK' }, headers: user.auth, body: { nip } };
    },
  },
  'GET /api/v1/users/{id}/{type}/consents': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'PUT /api/v1/users/{id}/{type}/password': {
    prepare: async (world) => {
      const user = await world.shopkeeper('PASSWORD');
      return {
        params: { id: user.id, type: 'SK' },
        headers: user.auth,
        body: { password: '583920', password_confirmation: '583920' },
      };
    },
  },
  'POST /api/v1/users/{id}/{type}/advisor-events': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('INVENTORY');
      return { params: { id: user.id, type: 'SK' }, headers: user.auth, body: { contact_type: 'CALL_ADVISER' } };
    },
  },
  'POST /api/v1/users/{id}/{type}/avals': {
    prepare: async (world) => {
      const user = await world.shopkeeper('INVENTORY');
      return {
        params: { id: user.id, type: 'SK' },
        headers: user.auth,
        body: { aval_type: 'PARTNER', name: 'Pedro Aval', phone_number: createPhone(), tax_payer_id: newCedula() },
      };
    },
  },
  'POST /api/v1/users/{id}/{type}/aval/nip': {
    prepare: async (world) => {
      const user = await world.withGuarantor();
      return { params: { id: user.id, type: 'SK' }, query: { to: user.avalPhone }, headers: user.auth };
    },
  },
  'PUT /api/v1/users/{id}/{type}/aval/nip': {
    prepare: async (world) => {
      const user = await world.withGuarantor();
      const sent = await world.post(`/api/v1/users/${user.id}/SK/aval/nip?to=${user.avalPhone}`, undefined, user.auth);
      return {
        params: { id: user.id, type: 'SK' },
        query: { to: user.avalPhone },
        headers: user.auth,
        body: { nip: sent.data.default_nip },
      };
    },
  },
  'PUT /api/v1/users/{id}/{type}/aval/phone-number': {
    prepare: async (world) => {
      const user = await world.withGuarantor();
      return {
        params: { id: user.id, type: 'SK' },
        headers: user.auth,
        body: { aval_type: 'PARTNER', phone_number: user.avalPhone, new_phone_number: `+1${createPhone()}` },
      };
    },
  },

  // ---- the guarantor (their invitation's token) ----
  'GET /api/v1/users/aval/invitation': {
    reusable: true,
    prepare: async (world) => ({ headers: (await world.withGuarantor()).avalAuth }),
  },
  'POST /api/v1/users/aval/consent': {
    prepare: async (world) => {
      const user = await world.withGuarantor();
      return {
        headers: user.avalAuth,
        body: { account_type_id: 'SK', account_id: user.id, collateral_id: user.avalId, ip_address: '190.0.0.2' },
      };
    },
  },
  'POST /api/v1/users/aval/reverse-otp': {
    prepare: async (world) => {
      const user = await world.withGuarantor();
      return {
        headers: user.avalAuth,
        body: { account_type_id: 'SK', account_id: user.id, collateral_id: user.avalId },
      };
    },
  },
  'PUT /api/v1/users/aval/reverse-otp': {
    prepare: async (world) => {
      const user = await world.withGuarantor();
      const started = await world.post(
        '/api/v1/users/aval/consent',
        { account_type_id: 'SK', account_id: user.id, collateral_id: user.avalId },
        user.avalAuth,
      );
      return { body: { session_id: started.data.session_id } };
    },
  },

  // ---- the signer (the signing link's token) ----
  'GET /api/v1/users/{type}/{id}/contract-link': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      return { params: { type: 'SK', id: user.id }, headers: await world.signingLink(user) };
    },
  },
  'GET /api/v1/users/{type}/{id}/mati-status': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      return {
        params: { type: 'SK', id: user.id },
        query: { verification_type: 'VERIFICATION', person_type: 'titular' },
        headers: await world.signingLink(user),
      };
    },
  },
  'PUT /api/v1/users/{type}/{id}/contract': {
    bodyLimit: 2 * 1024 * 1024,
    prepare: async (world) => {
      const user = await world.approved();
      const signer = await world.signingLink(user);
      await world.verified(user, signer);
      return {
        params: { type: 'SK', id: user.id },
        headers: { ...signer, 'user-agent': 'Mozilla/5.0 (Linux; Android 10) Chrome/120 Mobile' },
        body: { person_type: 'titular', signature: SIGNATURE_PNG, metadata: GEO },
      };
    },
  },
  'GET /api/v1/users/{type}/{id}/contract': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      return { params: { type: 'SK', id: user.id }, headers: await world.signingLink(user) };
    },
  },
  'GET /api/v1/users/{type}/{id}/contract/evidence': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      return { params: { type: 'SK', id: user.id }, headers: await world.signingLink(user) };
    },
  },
  'POST /api/v1/users/{type}/{id}/identity-documents': {
    bodyLimit: 3 * 8 * 1024 * 1024 + 64 * 1024,
    prepare: async (world) => {
      const user = await world.approved();
      const photos = world.photos();
      return {
        params: { type: 'SK', id: user.id },
        headers: await world.signingLink(user),
        multipart: {
          fields: [
            ['person_type', 'titular'],
            ['verification_type', 'VERIFICATION'],
          ],
          files: Object.entries(photos).map(([name, bytes]) => ({
            name,
            filename: `${name}.jpg`,
            contentType: 'image/jpeg',
            bytes,
          })),
        },
      };
    },
  },
  'PUT /api/v1/users/{type}/{id}/identity-photos/{kind}/{sha256}': {
    bodyLimit: 8 * 1024 * 1024,
    prepare: async (world) => {
      const user = await world.approved();
      const photo = Buffer.from(world.photos().id_front);
      return {
        params: { type: 'SK', id: user.id, kind: 'id_front', sha256: sha256Hex(photo) },
        headers: await world.signingLink(user),
        raw: { payload: photo, contentType: 'image/jpeg' },
      };
    },
  },
  'GET /api/v1/users/{type}/{id}/identity-photos': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      return { params: { type: 'SK', id: user.id }, headers: await world.signingLink(user) };
    },
  },
  'POST /api/v1/users/{type}/{id}/identity-checks': {
    prepare: async (world) => {
      const user = await world.approved();
      const signer = await world.signingLink(user);
      return {
        params: { type: 'SK', id: user.id },
        headers: signer,
        body: {
          person_type: 'titular',
          verification_type: 'VERIFICATION',
          photos: await world.sentPhotos(user, signer),
        },
      };
    },
  },
  'POST /api/v1/webhooks/identity/metamap': {
    reusable: true,
    // Each delivery starts a check of the signer, who has three attempts.
    refreshEvery: 3,
    prepare: async (world, { vendor }) => {
      // MetaMap's own delivery (a recorded one) for a signer of this application: the widget's
      // metadata, with the server's proof, as the signing page hands it over with MetaMap configured.
      const user = await world.approved();
      const signer = await world.signingLink(user);
      const view = await vendor.inject({
        method: 'GET',
        url: `/api/v1/users/SK/${user.id}/contract-link`,
        headers: signer,
      });
      const metadata = view.json().data.widget.metadata as Record<string, string>;
      const secret = vendor.config.METAMAP_WEBHOOK_SECRET!;
      return {
        app: vendor,
        // A new verification each request, so each reaches the check's start, not "recorded".
        get body() {
          const verification = randomUUID().replace(/-/g, '').slice(0, 24);
          return {
            ...METAMAP_REVIEW_NEEDED,
            resource: `https://api.getmati.com/v2/verifications/${verification}`,
            metadata,
          };
        },
        sign: (payload) => ({
          [METAMAP_SIGNATURE_HEADER]: createHmac('sha256', secret).update(payload).digest('hex'),
        }),
      };
    },
  },

  // ---- back office (a staff session) ----
  'POST /api/backoffice/session': {
    prepare: async (world) => {
      // Its own account each time: wrong passwords count towards a lock-out.
      const member = await createStaffMember(world.app, 'advisor');
      return { body: { email: member.email, password: STAFF_PASSWORD } };
    },
  },
  'GET /api/backoffice/session': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'DELETE /api/backoffice/session': {
    spendsCredentials: true,
    prepare: async (world) => ({ headers: await world.freshSession('advisor') }),
  },
  'GET /api/backoffice/staff': { reusable: true, prepare: async (world) => ({ headers: await world.adminSession() }) },
  'POST /api/backoffice/staff': {
    prepare: async (world) => ({
      headers: await world.adminSession(),
      body: {
        email: `nuevo-${randomUUID().slice(0, 8)}@prestamista.test`,
        name: 'Nueva Persona',
        role: 'advisor',
      },
    }),
  },
  'PATCH /api/backoffice/staff/{staffId}': {
    reusable: true,
    prepare: async (world) => {
      const member = await createStaffMember(world.app, 'advisor');
      return { params: { staffId: member.id }, headers: await world.adminSession(), body: { role: 'analyst' } };
    },
  },
  'POST /api/backoffice/staff/{staffId}/password-link': {
    reusable: true,
    prepare: async (world) => ({
      params: { staffId: (await createStaffMember(world.app, 'advisor')).id },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/staff/{staffId}/reset-factors': {
    reusable: true,
    prepare: async (world) => ({
      params: { staffId: (await createStaffMember(world.app, 'analyst')).id },
      headers: await world.adminSession(),
    }),
  },
  'GET /api/backoffice/login-options': { reusable: true, prepare: async () => ({}) },
  'POST /api/backoffice/session/factor': {
    // The second factor gives the login a new session id: the one it came with is spent.
    spendsCredentials: true,
    prepare: async (world) => {
      // A person with an app and recovery codes, past their password: a recovery code finishes it.
      const { cookie, recoveryCodes } = await world.waitingForSecondFactor();
      return { headers: { cookie }, body: { method: 'recovery_code', code: recoveryCodes[0] } };
    },
  },
  'POST /api/backoffice/session/passkey/options': {
    reusable: true,
    control: { status: 409, code: 'PASSKEYS_UNAVAILABLE', why: 'the account has no passkey (the browser makes one)' },
    prepare: async (world) => ({ headers: { cookie: (await world.waitingForSecondFactor()).cookie } }),
  },
  'POST /api/backoffice/session/passkey': {
    reusable: true,
    control: { status: 401, code: 'INVALID_FACTOR', why: 'only a browser’s authenticator can sign a challenge' },
    prepare: async (world) => ({
      headers: { cookie: (await world.waitingForSecondFactor()).cookie },
      body: { credential: { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'e30' } } },
    }),
  },
  'GET /api/backoffice/me/factors': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'POST /api/backoffice/me/totp': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.freshSession('advisor') }),
  },
  'POST /api/backoffice/me/totp/confirm': {
    spendsCredentials: true,
    prepare: async (world) => {
      // A new advisor's enrolment, confirmed with the app's code (the secret is read as the app would).
      const { headers, code } = await world.enrollingAdvisor();
      return { headers, body: { code } };
    },
  },
  'POST /api/backoffice/me/passkeys/options': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.freshSession('advisor') }),
  },
  'POST /api/backoffice/me/passkeys': {
    reusable: true,
    control: { status: 400, code: 'PASSKEY_NOT_REGISTERED', why: 'only a browser’s authenticator can answer' },
    prepare: async (world) => {
      const headers = await world.freshSession('advisor');
      await world.post('/api/backoffice/me/passkeys/options', undefined, headers);
      return {
        headers,
        body: {
          credential: { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'e30' } },
          name: 'Llave de la oficina',
        },
      };
    },
  },
  'DELETE /api/backoffice/me/passkeys/{passkeyId}': {
    reusable: true,
    control: { status: 404, code: 'NOT_FOUND', why: 'the account has no passkey (the browser makes one)' },
    prepare: async (world) => ({ params: { passkeyId: randomUUID() }, headers: await world.adminSession() }),
  },
  'POST /api/backoffice/me/recovery-codes': {
    reusable: true,
    // Its own person: new codes void the old ones the world's admin logs in with.
    prepare: async (world) => ({
      headers: await staffLogin(world.app, (await createStaffMember(world.app, 'analyst')).email),
    }),
  },
  'POST /api/backoffice/password-link': {
    reusable: true,
    prepare: async (world) => ({ body: { token: await world.passwordLinkToken() } }),
  },
  'POST /api/backoffice/password-link/password': {
    prepare: async (world) => ({
      body: { token: await world.passwordLinkToken(), password: 'una frase nueva para la cuenta' },
    }),
  },
  'GET /api/backoffice/applications': {
    reusable: true,
    prepare: async (world) => ({
      headers: await world.adminSession(),
      query: {
        q: 'María',
        next_step: 'INVENTORY',
        status: 'IN_PROGRESS',
        country: 'do',
        from: '2026-01-01',
        to: '2027-12-31',
        // A place in the order by start, which a range of start days asks for ('created|' cursor).
        after: 'Y3JlYXRlZHwyMDI2LTExLTI5VDE2OjAwOjAwLjAwMDAwMFp8MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAx',
        page_size: '10',
      },
    }),
  },
  'GET /api/backoffice/applications/{applicationId}': {
    reusable: true,
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('INVENTORY')).id },
      headers: await world.adminSession(),
    }),
  },
  'GET /api/backoffice/applications/{applicationId}/timeline': {
    reusable: true,
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('INVENTORY')).id },
      query: { chain: 'application', before: String(Number.MAX_SAFE_INTEGER) },
      headers: await world.adminSession(),
    }),
  },
  'GET /api/backoffice/applications/{applicationId}/identity-documents/{documentId}': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      await world.verified(user, await world.signingLink(user));
      const { documentId } = await world.verification(user.id);
      return { params: { applicationId: user.id, documentId }, headers: await world.adminSession() };
    },
  },
  'GET /api/backoffice/applications/{applicationId}/bureau-queries/{queryId}/raw': {
    reusable: true,
    control: {
      status: 404,
      code: 'BUREAU_REPORT_NOT_FOUND',
      why: 'the bureau simulator keeps no answer as received (a real bureau’s is read in backoffice/bureau-report.test.ts)',
    },
    prepare: async (world) => {
      const user = await world.approved();
      const headers = await world.adminSession();
      const detail = await world.app.inject({ method: 'GET', url: `/api/backoffice/applications/${user.id}`, headers });
      const queryId = (detail.json() as { data: { bureau_queries: { id: string }[] } }).data.bureau_queries[0]!.id;
      return { params: { applicationId: user.id, queryId }, headers };
    },
  },
  'GET /api/backoffice/applications/{applicationId}/contract': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      await world.signingLink(user);
      return { params: { applicationId: user.id }, headers: await world.adminSession() };
    },
  },
  'GET /api/backoffice/applications/{applicationId}/contract/evidence': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      await world.signingLink(user);
      return { params: { applicationId: user.id }, headers: await world.adminSession() };
    },
  },
  'POST /api/backoffice/applications/{applicationId}/contract/check': {
    bodyLimit: 20 * 1024 * 1024,
    prepare: async (world) => {
      const user = await world.approved();
      await world.signingLink(user);
      // Any PDF: the contract is not sealed yet, so the answer is a "no" that says why.
      return {
        params: { applicationId: user.id },
        headers: await world.adminSession(),
        raw: { payload: Buffer.from('%PDF-1.7\n%%EOF\n'), contentType: 'application/pdf' },
      };
    },
  },
  'POST /api/backoffice/applications/{applicationId}/guarantors': {
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('INVENTORY')).id },
      headers: await world.adminSession(),
      body: { aval_type: 'COLLATERAL', name: 'Ana Garante', phone_number: createPhone(), tax_payer_id: newCedula() },
    }),
  },
  'POST /api/backoffice/applications/{applicationId}/guarantors/{avalId}/invitation': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.withGuarantor();
      return { params: { applicationId: user.id, avalId: user.avalId }, headers: await world.adminSession() };
    },
  },
  'POST /api/backoffice/applications/{applicationId}/bureau-retry': {
    control: {
      status: 409,
      code: 'NOTHING_TO_RETRY',
      why: 'a retry needs a query the bureau gave up on (hours of failures); the handler refuses the others',
    },
    prepare: async (world) => ({
      params: { applicationId: (await world.approved()).id },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/applications/{applicationId}/address': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ABOUT_STORE');
      await world.typedNeighbourhood(user.id);
      return { params: { applicationId: user.id }, headers: await world.adminSession(), body: { action: 'confirm' } };
    },
  },
  'POST /api/backoffice/applications/{applicationId}/contract-links': {
    prepare: async (world) => ({
      params: { applicationId: (await world.approved()).id },
      headers: await world.adminSession(),
      body: { person_type: 'titular' },
    }),
  },
  'POST /api/backoffice/applications/{applicationId}/verifications/{verificationId}/decision': {
    prepare: async (world) => {
      const user = await world.approved(underReviewCedula());
      await world.verified(user, await world.signingLink(user));
      const { id } = await world.verification(user.id);
      return {
        params: { applicationId: user.id, verificationId: id },
        headers: await world.adminSession(),
        body: { status: 'APPROVED', note: 'Cédula y selfie coinciden' },
      };
    },
  },
  'POST /api/backoffice/applications/{applicationId}/signers/{signerId}/extra-attempt': {
    // A signer who used up their attempts: only then is one more granted, once (issue 26).
    prepare: async (world) => {
      const user = await world.approved(rejectedCedula());
      const link = await world.signingLink(user);
      for (let i = 0; i < world.app.config.IDENTITY_MAX_ATTEMPTS; i++) await world.verified(user, link);
      const signer = await world.signer(user.id);
      return {
        params: { applicationId: user.id, signerId: signer.id },
        headers: await world.adminSession(),
        body: { note: 'Cámara dañada' },
      };
    },
  },
  'GET /api/backoffice/advisor-queue': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession(), query: { include_done: 'true' } }),
  },
  'POST /api/backoffice/advisor-queue/{source}/{sourceId}/claim': {
    prepare: async (world) => {
      const user = await world.shopkeeper('INVENTORY');
      const event = await world.post(
        `/api/v1/users/${user.id}/SK/advisor-events`,
        { contact_type: 'CALL_ADVISER' },
        user.auth,
      );
      const queue = (await world.get('/api/backoffice/advisor-queue', await world.adminSession())).data as {
        source: string;
        source_id: string;
        created_at: string;
      }[];
      const task =
        queue.find((item) => item.source === 'contact' && item.created_at === event.data.created_at) ?? queue[0]!;
      return { params: { source: task.source, sourceId: task.source_id }, headers: await world.adminSession() };
    },
  },
  'POST /api/backoffice/advisor-queue/{source}/{sourceId}/done': {
    prepare: async (world) => {
      const leadId = `lead-${randomUUID()}`;
      await world.post(
        '/ops/v1/lead-assignment',
        {
          lead_id: leadId,
          lead_type: 'INTERNAL',
          shopkeeper_phone: createPhone(),
          created_at: isoNow(),
          updated_at: isoNow(),
        },
        { 'x-api-key': world.app.config.OPS_API_KEY },
      );
      const headers = await world.adminSession();
      await world.post(`/api/backoffice/advisor-queue/lead/${leadId}/claim`, undefined, headers);
      return { params: { source: 'lead', sourceId: leadId }, headers, body: { note: 'Llamé y quedó en pasar.' } };
    },
  },
  'GET /api/backoffice/funnel': {
    reusable: true,
    prepare: async (world) => ({
      headers: await world.adminSession(),
      query: { from: '2026-01-01', to: today(), utm_source: 'radio' },
    }),
  },
  'GET /api/backoffice/jobs': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession(), query: { state: 'failed', name: 'x' } }),
  },
  'GET /api/backoffice/retention': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'GET /api/backoffice/exports/applications.csv': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession(), query: { from: '2026-01-01', to: today() } }),
  },
  'GET /api/backoffice/exports/consents.csv': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession(), query: { from: '2026-01-01', to: today() } }),
  },

  // ---- operations (the ops key) ----
  'GET /ops/v1/audit/{applicationId}': {
    reusable: true,
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('INVENTORY')).id },
      headers: { 'x-api-key': world.app.config.OPS_API_KEY },
    }),
  },
  'POST /ops/v1/lead-assignment': {
    reusable: true,
    prepare: async (world) => ({
      headers: { 'x-api-key': world.app.config.OPS_API_KEY },
      body: {
        lead_id: `lead-${randomUUID()}`,
        lead_type: 'INTERNAL',
        shopkeeper_phone: createPhone(),
        utm_source: 'radio',
        utm_medium: 'fm',
        utm_campaign: 'noviembre',
        created_at: isoNow(),
        updated_at: isoNow(),
      },
    }),
  },

  // ---- the policy lab (issue 33): an analyst drafts and backtests, an admin who did not write it publishes ----
  'GET /api/backoffice/policies': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'POST /api/backoffice/policies': {
    prepare: async (world) => ({ headers: await world.freshSession('analyst'), body: {} }),
  },
  'GET /api/backoffice/policies/{policyId}': {
    reusable: true,
    prepare: async (world) => ({
      params: { policyId: await world.publishedPolicy() },
      headers: await world.adminSession(),
    }),
  },
  'PUT /api/backoffice/policies/{policyId}': {
    prepare: async (world) => {
      const draft = await world.policyDraft();
      return {
        params: { policyId: draft.id },
        headers: draft.author,
        body: { revision: draft.revision, document: draft.document },
      };
    },
  },
  'DELETE /api/backoffice/policies/{policyId}': {
    prepare: async (world) => {
      const draft = await world.policyDraft();
      return { params: { policyId: draft.id }, headers: draft.author };
    },
  },
  'POST /api/backoffice/policies/{policyId}/publish': {
    prepare: async (world) => {
      const draft = await world.policyDraft();
      return {
        params: { policyId: draft.id },
        headers: await world.adminSession(),
        body: { revision: draft.revision, mode: 'shadow' },
      };
    },
  },
  'POST /api/backoffice/policies/{policyId}/activate': {
    prepare: async (world) => ({
      params: { policyId: await world.publishedPolicy() },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/policies/{policyId}/backtests': {
    reusable: true,
    prepare: async (world) => {
      const draft = await world.policyDraft();
      return {
        params: { policyId: draft.id },
        headers: draft.author,
        body: { from: '2026-01-01', to: today(), utm_source: 'radio' },
      };
    },
  },
  'GET /api/backoffice/policy-backtests/{backtestId}': {
    reusable: true,
    prepare: async (world) => {
      const draft = await world.policyDraft();
      const started = await world.post(
        `/api/backoffice/policies/${draft.id}/backtests`,
        { from: '2026-01-01', to: today() },
        draft.author,
      );
      return { params: { backtestId: started.data.id }, headers: draft.author };
    },
  },
  'GET /api/backoffice/policy-shadow': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'PUT /api/backoffice/policy-shadow': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession(), body: { policy_id: null } }),
  },

  // ---- the lender's systems (issue 30): webhook endpoints, partner keys, the lender's decision ----
  'GET /api/backoffice/webhook-endpoints': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'POST /api/backoffice/webhook-endpoints': {
    prepare: async (world) => ({
      headers: await world.adminSession(),
      body: { url: 'http://127.0.0.1:9/hooks', description: 'Core', event_types: ['decision.made'] },
    }),
  },
  'PATCH /api/backoffice/webhook-endpoints/{endpointId}': {
    prepare: async (world) => ({
      params: { endpointId: await world.webhookEndpoint() },
      headers: await world.adminSession(),
      body: { description: 'Core bancario', event_types: [], enabled: true },
    }),
  },
  'POST /api/backoffice/webhook-endpoints/{endpointId}/secret': {
    prepare: async (world) => ({
      params: { endpointId: await world.webhookEndpoint() },
      headers: await world.adminSession(),
      body: { overlap_hours: 2 },
    }),
  },
  'GET /api/backoffice/webhook-endpoints/{endpointId}/sends': {
    reusable: true,
    prepare: async (world) => ({
      params: { endpointId: await world.webhookEndpoint() },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/webhook-endpoints/{endpointId}/replay': {
    prepare: async (world) => ({
      params: { endpointId: await world.webhookEndpoint() },
      headers: await world.adminSession(),
      body: { failed_since: '2026-01-01T00:00:00Z' },
    }),
  },
  'GET /api/backoffice/partner-keys': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession() }),
  },
  'POST /api/backoffice/partner-keys': {
    prepare: async (world) => ({
      headers: await world.adminSession(),
      body: { name: 'Core', scopes: ['applications:read'], expires_in_days: 90 },
    }),
  },
  'POST /api/backoffice/partner-keys/{keyId}/revoke': {
    prepare: async (world) => {
      const headers = await world.adminSession();
      const made = await world.app.inject({
        method: 'POST',
        url: '/api/backoffice/partner-keys',
        headers,
        payload: { name: 'Para revocar', scopes: ['applications:read'] },
      });
      return { params: { keyId: made.json().data.key.id as string }, headers };
    },
  },
  'POST /api/backoffice/applications/{applicationId}/lender-decision': {
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('PENDING_APPROVAL')).id },
      headers: await world.adminSession(),
      body: { outcome: 'APPROVED', amount: 5000, term_months: 12, annual_rate: 24.5 },
    }),
  },
  // "Mis datos" and "Solicitudes de privacidad" (issue 31).
  'GET /api/v1/users/{id}/{type}/privacy/data': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP', { complete: true });
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'GET /api/v1/users/{id}/{type}/privacy/data.pdf': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP', { complete: true });
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'GET /api/v1/users/{id}/{type}/privacy/requests': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP', { complete: true });
      return { params: { id: user.id, type: 'SK' }, headers: user.auth };
    },
  },
  'POST /api/v1/users/{id}/{type}/privacy/requests': {
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP', { complete: true });
      return {
        params: { id: user.id, type: 'SK' },
        headers: user.auth,
        body: { kind: 'rectification', field: 'name', reason: 'Mi nombre está mal escrito en la solicitud.' },
      };
    },
  },
  'GET /api/backoffice/privacy-requests': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.adminSession(), query: { state: 'all' } }),
  },
  'GET /api/backoffice/privacy-requests/{requestId}': {
    reusable: true,
    prepare: async (world) => ({
      params: { requestId: await privacyRequest(world, 'opposition') },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/privacy-requests/{requestId}/start': {
    prepare: async (world) => ({
      params: { requestId: await privacyRequest(world, 'opposition') },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/privacy-requests/{requestId}/rectify': {
    prepare: async (world) => ({
      params: { requestId: await privacyRequest(world, 'rectification') },
      headers: await world.adminSession(),
      body: { field: 'name', value: 'Ana Lucía' },
    }),
  },
  'POST /api/backoffice/privacy-requests/{requestId}/erase': {
    prepare: async (world) => ({
      params: { requestId: await privacyRequest(world, 'cancellation') },
      headers: await world.adminSession(),
    }),
  },
  'POST /api/backoffice/privacy-requests/{requestId}/refuse': {
    prepare: async (world) => ({
      params: { requestId: await privacyRequest(world, 'opposition') },
      headers: await world.adminSession(),
      body: { legal_reason: 'Art. 26 LFPDPPP: obligación legal de conservar los datos.' },
    }),
  },
  'GET /partner/v1/applications': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.partnerKey(), query: { limit: '5' } }),
  },
  'GET /partner/v1/applications/{applicationId}': {
    reusable: true,
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('PENDING_APPROVAL')).id },
      headers: await world.partnerKey(),
    }),
  },
  'PUT /partner/v1/applications/{applicationId}/external-id': {
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('PENDING_APPROVAL')).id },
      headers: await world.partnerKey(),
      body: { external_id: `CORE-${randomUUID().slice(0, 8)}` },
    }),
  },
  'POST /partner/v1/applications/{applicationId}/decision': {
    prepare: async (world) => ({
      params: { applicationId: (await world.shopkeeper('PENDING_APPROVAL')).id },
      headers: await world.partnerKey(),
      body: { outcome: 'DECLINED', reason: 'Capacidad de pago insuficiente' },
    }),
  },
  'GET /partner/v1/applications/{applicationId}/contract': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      await world.signingLink(user);
      return { params: { applicationId: user.id }, headers: await world.partnerKey() };
    },
  },
  'GET /partner/v1/applications/{applicationId}/contract/evidence': {
    reusable: true,
    prepare: async (world) => {
      const user = await world.approved();
      await world.signingLink(user);
      return { params: { applicationId: user.id }, headers: await world.partnerKey() };
    },
  },
  'GET /partner/v1/events': {
    reusable: true,
    prepare: async (world) => ({ headers: await world.partnerKey(), query: { limit: '10' } }),
  },

  // ---- test-mode tools and the document (hidden from the OpenAPI document) ----
  'GET /api/openapi.json': { reusable: true, prepare: async () => ({}) },
  'GET /partner/v1/openapi.json': { reusable: true, prepare: async () => ({}) },
  'GET /livez': { reusable: true, prepare: async () => ({}) },
  'GET /readyz': { reusable: true, prepare: async () => ({}) },
  'GET /metrics': {
    reusable: true,
    prepare: async () => ({}),
    control: {
      status: 401,
      code: 'UNAUTHORIZED',
      why: 'the fuzzing app sets no METRICS_TOKEN: /metrics is then refused on the main port',
    },
  },
  'GET /dev/dev.css': { reusable: true, prepare: async () => ({}) },
  'GET /dev/outbox': { reusable: true, prepare: async () => ({}) },
  'GET /dev/outbox.json': { reusable: true, prepare: async () => ({ query: { to: `+1${createPhone()}` } }) },
  'GET /dev/phone': { reusable: true, prepare: async () => ({ query: { sent: '1' } }) },
  'POST /dev/reverse-otp/inbound': {
    reusable: true,
    prepare: async (world) => {
      const phone = createPhone();
      const started = await world.post('/api/v1/users/reverse-otp', { phone_number: phone });
      return { body: { from: `+1${phone}`, text: started.data.message } };
    },
  },
  'POST /dev/outbox/reply': {
    reusable: true,
    prepare: async () => ({ body: { from: `+1${createPhone()}`, channel: 'whatsapp', text: 'hola' } }),
  },
  'POST /dev/reminders/run': {
    reusable: true,
    prepare: async () => ({ body: { phone_number: createPhone(), minutes_ahead: 0 } }),
  },

  // ---- messages (issue 34): the simulator's signed webhooks, a reminder's resume link ----
  'POST /api/v1/webhooks/messages/{provider}/status': {
    // A report that moves nothing (delivered again) changes nothing the next depends on.
    reusable: true,
    prepare: async (world) => {
      const user = await world.shopkeeper('ACCOUNT_NIP');
      await world.consentPin(user);
      const [message] = await world.app.db
        .select()
        .from(outgoingMessages)
        .where(eq(outgoingMessages.applicationId, user.id));
      // The job queue runs no sender here: the message stands as its sender would leave it.
      await world.app.db
        .update(outgoingMessages)
        .set({ providerMessageId: `SIM${randomUUID().replace(/-/g, '')}`, status: 'delivered', sealed: null })
        .where(eq(outgoingMessages.id, message!.id));
      const [sent] = await world.app.db.select().from(outgoingMessages).where(eq(outgoingMessages.id, message!.id));
      return {
        params: { provider: 'outbox' },
        body: { event: 'message.status', data: { id: sent!.providerMessageId, status: 'delivered', error_code: null } },
        sign: messageSign(world.app),
      };
    },
  },
  'POST /api/v1/webhooks/messages/{provider}/inbound': {
    reusable: true,
    prepare: async (world) => ({
      params: { provider: 'outbox' },
      get body() {
        return {
          event: 'message.received',
          data: { id: randomUUID(), from: `+1${createPhone()}`, channel: 'whatsapp', text: 'hola' },
        };
      },
      sign: messageSign(world.app),
    }),
  },
  'POST /api/v1/resume-links': {
    // Spent by a success: a fresh reminder's link after each.
    prepare: async (world) => {
      const user = await world.shopkeeper('BUSINESS_ADDRESS', { complete: true });
      return { body: { token: await resumeToken(world.app, user.id) } };
    },
  },
};

const messageSign = (app: App) => (payload: Buffer) => ({
  [SIGNATURE_HEADER]: app.messageWebhooks.sign!(payload.toString('utf8')),
});

/**
 * A reminder's resume token for an application stopped two hours before 10:00 in Santo Domingo
 * (the sweep run as of then, outside the quiet hours), read from its sealed message.
 */
async function resumeToken(app: App, applicationId: string): Promise<string> {
  const day = 86_400_000;
  const tenLocal = Math.ceil((Date.now() - 14 * 3_600_000) / day) * day + 14 * 3_600_000;
  await app.db
    .update(users)
    .set({ updatedAt: new Date(tenLocal - 2 * 3_600_000) })
    .where(eq(users.id, applicationId));
  const deps = { db: app.db, cipher: app.cipher, config: app.config, jobs: app.jobs, clock: () => new Date(tenLocal) };
  const [queued] = await sendApplicantReminders(deps, applicationId);
  const [message] = await app.db.select().from(outgoingMessages).where(eq(outgoingMessages.id, queued!.messageId));
  const { body } = JSON.parse(app.cipher.decrypt(message!.sealed!)) as { body: string };
  return /\/r\/([A-Za-z0-9_-]{43})/.exec(body)![1]!;
}
