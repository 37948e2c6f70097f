import { z } from 'zod';
import { APPLICATION_STATUSES, NEXT_STEPS } from '../application.js';
import { STAFF_FACTOR_METHODS, STAFF_LOGIN_STAGES, STAFF_PASSWORD_MAX_LENGTH, STAFF_ROLES } from '../backoffice.js';
import { PERSON_TYPES } from '../signing.js';
import { MESSAGE_CHANNELS, MESSAGE_KINDS, MESSAGE_STATUSES } from '../messaging.js';
import { registerAvalBody } from './avals.js';
import { lenderDecisionBody, lenderDecisionView } from './lending.js';
import { callsSharing, defineCall, refusals, type Route } from './call.js';
import {
  advisorQueueRoute,
  applicationContractEvidenceRoute,
  checkContractRoute,
  applicationContractRoute,
  applicationDetailRoute,
  applicationTimelineRoute,
  bureauQueryRawRoute,
  claimAdvisorTaskRoute,
  decideVerificationRoute,
  exportApplicationsRoute,
  exportConsentsRoute,
  finishAdvisorTaskRoute,
  funnelRoute,
  grantExtraAttemptRoute,
  identityDocumentImageRoute,
  issueContractLinkRoute,
  recordLenderDecisionRoute,
  listApplicationsRoute,
  registerGuarantorRoute,
  resendInvitationRoute,
  retryBureauRoute,
  reviewAddressRoute,
} from './routes/backoffice.js';
import { contractEvidenceResponse, contractSealSchema } from './signing.js';

/**
 * The back office's API (`/api/backoffice`, staff session cookie). Request schemas are checked by
 * the API; the web app imports the types only.
 */
const staffRole = z.enum(STAFF_ROLES);
const email = z.string().trim().toLowerCase().email('Escribe un correo válido.').max(200);
/** The format only: whether the day exists and is in range is the API's check, with its own message. */
const dateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Usa una fecha con el formato AAAA-MM-DD.');
const shortText = (max: number) => z.string().trim().max(max, `Usa como máximo ${max} caracteres.`);

// ---- session and staff accounts -------------------------------------------------------------
export const staffView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  active: z.boolean(),
  /** Failed logins under this e-mail locked it until then (null: not locked). */
  locked_until: z.string().nullable(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
  /** Whether a second factor (an authenticator app or a passkey) is enrolled. */
  second_factor: z.boolean(),
  /** The next login enrols a second factor first (the role requires one, or an admin reset them). */
  must_enrol: z.boolean(),
});
export type StaffView = z.infer<typeof staffView>;

const code = (message: string) => z.string().trim().min(1, message).max(64, message);

/** What the signed-in person's session allows: a second factor to give or enrol first, or the back office. */
export const staffSessionView = z.object({
  stage: z.enum(STAFF_LOGIN_STAGES),
  staff: staffView,
  /** How this login proved the first factor. */
  auth_method: z.enum(['password', 'sso']),
  /** The second factors this person can give now (stage 'factor', and step-up). */
  factors: z.array(z.enum(STAFF_FACTOR_METHODS)),
  /** Until when the last second factor given counts for exports, images, downloads and staff management. */
  step_up_until: z.string().nullable(),
});
export type StaffSessionView = z.infer<typeof staffSessionView>;

export const staffLoginBody = z.object({
  email,
  password: z.string().min(1, 'Escribe tu contraseña.').max(STAFF_PASSWORD_MAX_LENGTH),
});
export type StaffLoginBody = z.input<typeof staffLoginBody>;
export const staffSessionResponse = z.object({ data: staffSessionView });
export type StaffSessionResponse = z.infer<typeof staffSessionResponse>;

/** How staff may sign in here (before any session): the login screen shows what applies. */
export const staffLoginOptionsResponse = z.object({
  data: z.object({ password: z.boolean(), sso: z.object({ name: z.string() }).nullable() }),
});
export type StaffLoginOptionsResponse = z.infer<typeof staffLoginOptionsResponse>;

/** A code from the authenticator app, or one of the recovery codes. */
export const staffFactorBody = z.object({
  method: z.enum(['totp', 'recovery_code']),
  code: code('Escribe el código.'),
});
export type StaffFactorBody = z.input<typeof staffFactorBody>;

/** WebAuthn options (SimpleWebAuthn's JSON) for the browser's navigator.credentials call. */
export const passkeyOptionsResponse = z.object({ data: z.object({ options: z.record(z.string(), z.unknown()) }) });
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponse>;
/** What the browser answered (a PublicKeyCredential as JSON); SimpleWebAuthn checks every part. */
const credentialJson = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
});
export const passkeyLoginBody = z.object({ credential: credentialJson });
export type PasskeyLoginBody = z.input<typeof passkeyLoginBody>;
export const passkeyRegisterBody = z.object({
  credential: credentialJson,
  name: shortText(60).optional(),
});
export type PasskeyRegisterBody = z.input<typeof passkeyRegisterBody>;

/** A new authenticator-app secret, to scan (QR of otpauth_uri) or type (secret, base32). */
export const totpEnrolmentResponse = z.object({ data: z.object({ secret: z.string(), otpauth_uri: z.string() }) });
export type TotpEnrolmentResponse = z.infer<typeof totpEnrolmentResponse>;
export const totpConfirmBody = z.object({ code: code('Escribe el código de tu aplicación.') });
export type TotpConfirmBody = z.input<typeof totpConfirmBody>;
/** A factor enrolled: the session, and the recovery codes when they were made now (shown once). */
export const factorEnrolledResponse = z.object({
  data: z.object({ session: staffSessionView, recovery_codes: z.array(z.string()).nullable() }),
});
export type FactorEnrolledResponse = z.infer<typeof factorEnrolledResponse>;

export const staffFactorsResponse = z.object({
  data: z.object({
    totp: z.boolean(),
    passkeys: z.array(
      z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() }),
    ),
    recovery_codes_left: z.number().int(),
  }),
});
export type StaffFactorsResponse = z.infer<typeof staffFactorsResponse>;
export const passkeyParams = z.object({ passkeyId: z.uuid('Llave inválida.') });
export const recoveryCodesResponse = z.object({ data: z.object({ recovery_codes: z.array(z.string()) }) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** A single-use link to set a password (new account, or recovery), valid STAFF_PASSWORD_LINK_MINUTES. */
export const passwordLinkView = z.object({ url: z.string(), expires_at: z.string() });
export type PasswordLinkView = z.infer<typeof passwordLinkView>;
export const passwordLinkResponse = z.object({ data: passwordLinkView });
export type PasswordLinkResponse = z.infer<typeof passwordLinkResponse>;
const linkToken = z.string().trim().min(20, 'El enlace no es válido.').max(100, 'El enlace no es válido.');
export const passwordLinkBody = z.object({ token: linkToken });
export type PasswordLinkBody = z.input<typeof passwordLinkBody>;
export const passwordLinkInfoResponse = z.object({ data: z.object({ email: z.string(), name: z.string() }) });
export type PasswordLinkInfoResponse = z.infer<typeof passwordLinkInfoResponse>;
export const passwordSetBody = z.object({ token: linkToken, password: z.string().max(STAFF_PASSWORD_MAX_LENGTH) });
export type PasswordSetBody = z.input<typeof passwordSetBody>;

export const staffCreateBody = z.object({
  email,
  name: shortText(120).min(1, 'Escribe el nombre.'),
  role: staffRole,
});
export type StaffCreateBody = z.input<typeof staffCreateBody>;
/** The new account, and the link its owner sets a password with (null when passwords are off: single sign-on). */
export const staffCreatedResponse = z.object({
  data: z.object({ staff: staffView, password_link: passwordLinkView.nullable() }),
});
export type StaffCreatedResponse = z.infer<typeof staffCreatedResponse>;
export const staffUpdateBody = z
  .object({ role: staffRole.optional(), active: z.boolean().optional() })
  .refine((body) => body.role !== undefined || body.active !== undefined, 'Indica qué cambiar.');
export type StaffUpdateBody = z.input<typeof staffUpdateBody>;
export const staffParams = z.object({ staffId: z.uuid('Cuenta inválida.') });
export const staffResponse = z.object({ data: staffView });
export const staffListResponse = z.object({ data: z.array(staffView) });
export type StaffListResponse = z.infer<typeof staffListResponse>;

// ---- applications ---------------------------------------------------------------------------
/** Where a page of the list starts: opaque, as a page's `next_cursor` or `previous_cursor` gave it. */
const listCursor = z.string().trim().min(1).max(200, 'Cursor inválido.');
export const applicationsQuery = z.object({
  /** Phone (any format), name, or the exact tax id. */
  q: shortText(100).optional(),
  next_step: z.enum(NEXT_STEPS).optional(),
  status: z.enum(APPLICATION_STATUSES).optional(),
  country: z.enum(['do', 'mx']).optional(),
  utm_source: shortText(100).optional(),
  utm_campaign: shortText(100).optional(),
  /**
   * Started on or after / on or before (dates in UTC). Either one orders the list by start, latest
   * first, instead of by last activity (applicationsOrder); its cursors are of that order only.
   */
  from: dateOnly.optional(),
  to: dateOnly.optional(),
  /** The `next_cursor` of the page before: the applications after it (issue 35: keyset, no OFFSET). */
  after: listCursor.optional(),
  /** The `previous_cursor` of the page after: the applications before it. */
  before: listCursor.optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type ApplicationsQuery = z.input<typeof applicationsQuery>;
export type ApplicationsFilter = z.output<typeof applicationsQuery>;

export const applicationSummary = z.object({
  id: z.string(),
  phone: z.string(),
  full_name: z.string().nullable(),
  business_name: z.string().nullable(),
  next_step: z.string(),
  status: z.string(),
  utm_source: z.string().nullable(),
  utm_campaign: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** A guarantor's phone of this application is named on another application too (issue 26). */
  guarantor_phone_shared: z.boolean(),
});
export type ApplicationSummary = z.infer<typeof applicationSummary>;
export const applicationsResponse = z.object({
  data: z.object({
    items: z.array(applicationSummary),
    /** How many applications match, counted up to a cap (10,000): the count's cost stays bounded. */
    total: z.number(),
    /** false: more than `total` match (the count stopped at the cap; the screen says «Más de…»). */
    total_exact: z.boolean(),
    page_size: z.number(),
    /** `after` for the next page; null on the last one. */
    next_cursor: z.string().nullable(),
    /** `before` for the previous page; null on the first one. */
    previous_cursor: z.string().nullable(),
  }),
});
export type ApplicationsResponse = z.infer<typeof applicationsResponse>;

export const applicationParams = z.object({ applicationId: z.uuid('Solicitud inválida.') });

const auditEventView = z.object({
  id: z.number(),
  type: z.string(),
  actor: z.string(),
  /** Who that is, in words: the staff member's name and role, 'Solicitante', 'Sistema', the verifier… */
  actor_name: z.string(),
  at: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
/** 'application' (the user's chain) or 'phone' (proofs before registration). */
const chainName = z.enum(['application', 'phone'], 'Elige la cadena: application o phone.');
/** `before` for the page of older events (the oldest event shown); null: none older. */
const olderCursor = z.number().nullable();
const chainView = z.object({
  chain: chainName,
  /** Verified from the chain's checkpoint on (decision 040): a break anywhere after it is reported. */
  valid: z.boolean(),
  broken_at: z.number().nullable(),
  reason: z.string().nullable(),
  /** Every event of the chain, those shown and the older ones. */
  total: z.number(),
  /** The chain's newest events (a page: 50 at most), oldest first. */
  events: z.array(auditEventView),
  older_cursor: olderCursor,
});
export type AuditChainView = z.infer<typeof chainView>;

/** A page of older events of one of the application's two chains (never a chain id the caller names). */
const eventCursor = 'Cursor inválido: usa el older_cursor de la página anterior.';
export const timelineQuery = z.object({
  chain: chainName,
  before: z.coerce.number(eventCursor).int(eventCursor).min(1, eventCursor).max(Number.MAX_SAFE_INTEGER, eventCursor),
});
export const timelinePageResponse = z.object({
  data: z.object({
    chain: chainName,
    /** The events just before `before`, oldest first (50 at most). */
    events: z.array(auditEventView),
    older_cursor: olderCursor,
  }),
});
export type TimelinePage = z.infer<typeof timelinePageResponse>['data'];

const documentView = z.object({ id: z.string(), kind: z.string(), format: z.string(), bytes: z.number() });
const verificationView = z.object({
  id: z.string(),
  verification_type: z.string(),
  provider: z.string(),
  status: z.string(),
  created_at: z.string(),
  answered_at: z.string().nullable(),
  answered_by: z.string().nullable(),
  note: z.string().nullable(),
  /** Listed for every role; the images themselves open for analysts and admins only. */
  documents: z.array(documentView),
});
const signerView = z.object({
  id: z.string(),
  person_type: z.enum(PERSON_TYPES),
  aval_id: z.string().nullable(),
  name: z.string(),
  state: z.string(),
  attempts_used: z.number(),
  attempts_left: z.number(),
  /** Extra attempts granted from the back office so far (at most EXTRA_ATTEMPTS_MAX). */
  extra_attempts: z.number(),
  signed_at: z.string().nullable(),
  verifications: z.array(verificationView),
});
export type SignerView = z.infer<typeof signerView>;

/** A message as the back office sees it: its kind, channel and delivery status, never its text or code. */
export const messageView = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  channel: z.enum(MESSAGE_CHANNELS),
  status: z.enum(MESSAGE_STATUSES),
  /** The provider's error code of a failure (Twilio's 63003: no WhatsApp at that number). */
  error_code: z.string().nullable(),
  /** The message this one is the fallback of (an SMS after a WhatsApp that failed). */
  fallback_of: z.string().nullable(),
  created_at: z.string(),
  status_at: z.string(),
});
export type MessageView = z.infer<typeof messageView>;

export const applicationDetailResponse = z.object({
  data: z.object({
    id: z.string(),
    phone: z.string(),
    next_step: z.string(),
    status: z.string(),
    country: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** False for advisors: tax id and birth date come masked and identity images stay closed. */
    sensitive_visible: z.boolean(),
    person: z.object({
      name: z.string().nullable(),
      lastname: z.string().nullable(),
      maternal_lastname: z.string().nullable(),
      tax_id: z.string().nullable(),
      birth_date: z.string().nullable(),
      marital_status: z.string().nullable(),
      length_of_residency_in_years: z.number().nullable(),
    }),
    utm: z.object({ source: z.string().nullable(), medium: z.string().nullable(), campaign: z.string().nullable() }),
    business: z
      .object({
        name: z.string(),
        business_type: z.string(),
        sales_range_id: z.number(),
        business_age_years: z.number(),
      })
      .nullable(),
    address: z
      .object({
        zip_code: z.string(),
        state: z.string(),
        city: z.string(),
        neighborhood: z.string(),
        street_name: z.string(),
        street_number: z.string(),
        apartment_number: z.string().nullable(),
        municipality_id: z.number().nullable(),
        neighborhood_typed: z.boolean(),
        neighborhood_reviewed_at: z.string().nullable(),
      })
      .nullable(),
    consents: z.array(
      z.object({
        id: z.string(),
        person_type: z.string(),
        aval_id: z.string().nullable(),
        created_at: z.string(),
        /** The address the consent was given from: analysts and admins only (null for advisors). */
        ip: z.string().nullable(),
        user_agent: z.string().nullable(),
        pin_verified: z.boolean(),
        bureau_folio: z.string(),
        consent_version: z.string(),
        consent_text_sha256: z.string(),
        authorized_until: z.string(),
      }),
    ),
    bureau_queries: z.array(
      z.object({
        id: z.string(),
        consent_id: z.string(),
        status: z.string(),
        attempts: z.number(),
        last_error: z.string().nullable(),
        /** Why a FAILED query is not tried again: 'exhausted', 'refused' or 'integrity' (a bad signature). */
        failure: z.enum(['exhausted', 'refused', 'integrity']).nullable(),
        /** The bureau that answered ('simulator', 'circulo'); null before any answer. */
        provider: z.string().nullable(),
        report: z.record(z.string(), z.unknown()).nullable(),
        /** The bureau's answer as received is kept: analysts may read it (`bureauQueryRawCall`); false for advisors. */
        raw_report: z.boolean(),
        /** The consent's audit owed to the bureau for this answer (Círculo's NIP audit); null when none is owed. */
        audit_status: z.string().nullable(),
        /** The bureau's acknowledgement of that audit (Círculo's folioCDC). */
        audit_folio: z.string().nullable(),
        audit_last_error: z.string().nullable(),
        created_at: z.string(),
        updated_at: z.string(),
      }),
    ),
    /** The lender's decisions after PENDING_APPROVAL (issue 30), oldest first. */
    /** With who decided in words (the timeline shows only its newest events: issue 35). */
    lender_decisions: z.array(lenderDecisionView.extend({ decided_by_name: z.string() })),
    decisions: z.array(
      z.object({
        id: z.string(),
        consent_id: z.string(),
        aval_id: z.string().nullable(),
        result: z.string(),
        amount: z.number(),
        currency: z.string(),
        policy_version: z.string(),
        rules: z.array(
          z.object({
            rule: z.string(),
            passed: z.boolean(),
            value: z.unknown(),
            threshold: z.unknown(),
            /** The policy's reason for a failed rule, in Spanish (absent from older decisions). */
            reason: z.string().optional(),
          }),
        ),
        created_at: z.string(),
      }),
    ),
    guarantors: z.array(
      z.object({
        id: z.string(),
        aval_type: z.string(),
        name: z.string().nullable(),
        phone: z.string().nullable(),
        status: z.string(),
        created_at: z.string(),
        /** Other applications that name this phone as a guarantor's (issue 26: flagged when above 0). */
        phone_other_applications: z.number(),
      }),
    ),
    signers: z.array(signerView),
    contract: z
      .object({
        id: z.string(),
        template_version: z.string(),
        unsigned_sha256: z.string(),
        signed_sha256: z.string().nullable(),
        created_at: z.string(),
        /** The lender's seal once everybody signed: its time-stamp and NOM-151 status (issue 36). */
        seal: contractSealSchema.nullable(),
      })
      .nullable(),
    advisor_contacts: z.array(z.object({ id: z.number(), contact_type: z.string(), created_at: z.string() })),
    /** Every message sent about the application, newest first: what, by which channel, its delivery; never its text. */
    messages: z.array(messageView),
    timeline: z.array(chainView),
  }),
});
export type ApplicationDetail = z.infer<typeof applicationDetailResponse>['data'];

export const identityDocumentParams = applicationParams.extend({ documentId: z.uuid('Documento inválido.') });
export const bureauQueryParams = applicationParams.extend({ queryId: z.uuid('Consulta inválida.') });
/** The bureau's answer as it was received (Círculo's `Respuesta`), for analysts: each read is audited. */
export const bureauQueryRawResponse = z.object({ data: z.record(z.string(), z.unknown()) });
export type BureauRawReport = z.infer<typeof bureauQueryRawResponse>['data'];

// ---- actions ----------------------------------------------------------------------------------
/** Every action answers where the application stands now, and what the action made. */
export const actionResponse = z.object({
  data: z.object({ next_step: z.string(), status: z.string(), result: z.record(z.string(), z.unknown()) }),
});
export type ActionResponse = z.infer<typeof actionResponse>;

/** The same fields the shopkeeper's form sends (name, phone, tax id). */
export const registerGuarantorBody = registerAvalBody;
export type RegisterGuarantorBody = z.input<typeof registerGuarantorBody>;
export const guarantorParams = applicationParams.extend({ avalId: z.uuid('Aval inválido.') });

export const addressReviewBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('confirm') }),
  z.object({ action: z.literal('correct'), neighborhood_id: z.number().int().positive('Elige un sector.') }),
]);
export type AddressReviewBody = z.input<typeof addressReviewBody>;

export const issueContractLinkBody = z.object({
  person_type: z.enum(PERSON_TYPES),
  aval_id: z.uuid('Aval inválido.').optional(),
});
export type IssueContractLinkBody = z.input<typeof issueContractLinkBody>;

export const verificationParams = applicationParams.extend({ verificationId: z.uuid('Verificación inválida.') });
export const reviewDecisionBody = z.object({
  status: z.enum(['APPROVED', 'REJECTED']),
  note: shortText(500).min(3, 'Escribe una nota para el expediente.'),
});
export type ReviewDecisionBody = z.input<typeof reviewDecisionBody>;

export const signerParamsBackoffice = applicationParams.extend({ signerId: z.uuid('Firmante inválido.') });
export const extraAttemptBody = z.object({ note: shortText(500).min(3, 'Escribe una nota para el expediente.') });
export type ExtraAttemptBody = z.input<typeof extraAttemptBody>;

// ---- advisor queue ----------------------------------------------------------------------------
export const advisorQueueQuery = z.object({ include_done: z.enum(['true', 'false']).default('false') });
export const advisorTaskParams = z.object({
  source: z.enum(['contact', 'lead']),
  sourceId: shortText(100).min(1),
});
export const advisorTaskDoneBody = z.object({ note: shortText(500).optional() });
export const advisorTaskView = z.object({
  source: z.enum(['contact', 'lead']),
  source_id: z.string(),
  /** CALL_ADVISER, WHATSAPP_CHAT, WITH_ADVISER, or the lead's type (INTERNAL: the web app's). */
  kind: z.string(),
  application_id: z.string().nullable(),
  phone: z.string(),
  name: z.string().nullable(),
  created_at: z.string(),
  claimed_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  claimed_at: z.string().nullable(),
  done_at: z.string().nullable(),
  /** tel: and WhatsApp links for the phone. */
  call_url: z.string(),
  chat_url: z.string(),
  /**
   * A lead is one task per person (issue 27): every login records a lead (decision 005), the
   * queue shows the phone's first and counts them. How many, and when the latest came; a contact
   * request: 1, its own time.
   */
  visits: z.number(),
  last_seen_at: z.string(),
});
export type AdvisorTaskView = z.infer<typeof advisorTaskView>;
export const advisorQueueResponse = z.object({ data: z.array(advisorTaskView) });
export type AdvisorQueueResponse = z.infer<typeof advisorQueueResponse>;
export const advisorTaskResponse = z.object({ data: advisorTaskView });

// ---- reports -----------------------------------------------------------------------------------
export const reportQuery = z.object({ from: dateOnly, to: dateOnly, utm_source: shortText(100).optional() });
export type ReportQuery = z.input<typeof reportQuery>;
export const funnelResponse = z.object({
  data: z.object({
    from: z.string(),
    to: z.string(),
    utm_source: z.string().nullable(),
    steps: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        reached: z.number(),
        /** reached / the previous step's reached, 0–1; null for the first step or after a zero. */
        conversion: z.number().nullable(),
        /** Median seconds from the previous step, over those who reached both; null when none did. */
        median_seconds_from_previous: z.number().nullable(),
      }),
    ),
    /**
     * The reminders sent in the range, per number (1 = the first): how many went out and how many of
     * those applicants moved on afterwards.
     */
    reminders: z.array(z.object({ number: z.number(), sent: z.number(), came_back: z.number() })),
  }),
});
export type FunnelResponse = z.infer<typeof funnelResponse>;
export const exportQuery = z.object({ from: dateOnly, to: dateOnly });

// ---- calls -------------------------------------------------------------------------------------
const applicationCall = callsSharing({}, refusals(400, 401, 403, 404, 409, 422, 502));
const actionCall = <R extends Route, P extends z.ZodType>(route: R, params: P) =>
  applicationCall(route, { params }, { 200: actionResponse });
const actionWithBodyCall = <R extends Route, P extends z.ZodType, B extends z.ZodType>(route: R, params: P, body: B) =>
  applicationCall(route, { params, body }, { 200: actionResponse });

export const listApplicationsCall = applicationCall(
  listApplicationsRoute,
  { query: applicationsQuery },
  { 200: applicationsResponse },
);
export const applicationDetailCall = applicationCall(
  applicationDetailRoute,
  { params: applicationParams },
  { 200: applicationDetailResponse },
);
export const applicationTimelineCall = applicationCall(
  applicationTimelineRoute,
  { params: applicationParams, query: timelineQuery },
  { 200: timelinePageResponse },
);

// Files the browser opens itself (the answers are bytes): each documents its media types only.
export const identityDocumentImageCall = defineCall(identityDocumentImageRoute, {
  params: identityDocumentParams,
  responses: {
    200: {
      description: 'La imagen, como se recibió',
      content: {
        'image/jpeg': { schema: z.string() },
        'image/png': { schema: z.string() },
        'image/webp': { schema: z.string() },
      },
    },
  },
});
export const applicationContractCall = defineCall(applicationContractRoute, {
  params: applicationParams,
  responses: { 200: { description: 'PDF', content: { 'application/pdf': { schema: z.string() } } } },
});
export const bureauQueryRawCall = applicationCall(
  bureauQueryRawRoute,
  { params: bureauQueryParams },
  { 200: bureauQueryRawResponse },
);
export const applicationContractEvidenceCall = defineCall(applicationContractEvidenceRoute, {
  params: applicationParams,
  responses: { 200: contractEvidenceResponse },
});

/**
 * "¿Es este documento el que firmamos?" (issue 36): a PDF someone sent, compared with the contract
 * as it was sealed and as it is kept (its time-stamp in), and its seal checked.
 */
export const contractCheckResponse = z.object({
  data: z.object({
    /** The exact bytes of the contract as sealed, or as kept with its time-stamp. */
    matches: z.boolean(),
    version: z.enum(['sealed', 'stamped']).nullable(),
    sha256: z.string(),
    /** The seal inside the file: intact, covering the whole file, and ours (null: the file carries none). */
    seal: z
      .object({
        intact: z.boolean(),
        whole_document: z.boolean(),
        ours: z.boolean(),
        certificate_name: z.string().nullable(),
      })
      .nullable(),
    /** The answer in Spanish, as the back office shows it. */
    readable_message: z.string(),
  }),
});
export type ContractCheck = z.infer<typeof contractCheckResponse>['data'];
/** The body is the PDF itself (application/pdf), read by the route's own parser. */
export const checkContractCall = applicationCall(
  checkContractRoute,
  { params: applicationParams },
  { 200: contractCheckResponse, ...refusals(413, 415) },
);

export const registerGuarantorCall = actionWithBodyCall(
  registerGuarantorRoute,
  applicationParams,
  registerGuarantorBody,
);
export const resendInvitationCall = actionCall(resendInvitationRoute, guarantorParams);
export const retryBureauCall = actionCall(retryBureauRoute, applicationParams);
export const reviewAddressCall = actionWithBodyCall(reviewAddressRoute, applicationParams, addressReviewBody);
/** 503: the contract's PDF not built within its time bound (decision 021). */
export const issueContractLinkCall = applicationCall(
  issueContractLinkRoute,
  { params: applicationParams, body: issueContractLinkBody },
  { 200: actionResponse, ...refusals(503) },
);
/** The lender's decision after PENDING_APPROVAL, recorded by an analyst (issue 30). */
export const recordLenderDecisionCall = actionWithBodyCall(
  recordLenderDecisionRoute,
  applicationParams,
  lenderDecisionBody,
);
export const decideVerificationCall = actionWithBodyCall(
  decideVerificationRoute,
  verificationParams,
  reviewDecisionBody,
);
export const grantExtraAttemptCall = actionWithBodyCall(
  grantExtraAttemptRoute,
  signerParamsBackoffice,
  extraAttemptBody,
);

const queueCall = callsSharing({}, refusals(400, 401, 403, 404, 409));
export const advisorQueueCall = queueCall(
  advisorQueueRoute,
  { query: advisorQueueQuery },
  { 200: advisorQueueResponse },
);
export const claimAdvisorTaskCall = queueCall(
  claimAdvisorTaskRoute,
  { params: advisorTaskParams },
  { 200: advisorTaskResponse },
);
export const finishAdvisorTaskCall = queueCall(
  finishAdvisorTaskRoute,
  { params: advisorTaskParams, body: advisorTaskDoneBody },
  { 200: advisorTaskResponse },
);

const reportCall = callsSharing({}, refusals(400, 401, 403));
export const funnelCall = reportCall(funnelRoute, { query: reportQuery }, { 200: funnelResponse });
/** A CSV streamed as it is read (no serializer runs for it: the schema documents the type). */
const csvAnswer = { description: 'CSV (UTF-8 con BOM)', content: { 'text/csv': { schema: z.string() } } };
export const exportApplicationsCall = reportCall(exportApplicationsRoute, { query: exportQuery }, { 200: csvAnswer });
export const exportConsentsCall = reportCall(exportConsentsRoute, { query: exportQuery }, { 200: csvAnswer });
