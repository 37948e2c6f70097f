// Test helpers of the back office (imported by *.test.tsx only).
import type {
  ApplicationDetail,
  ApplicationSummary,
  AuditChainView,
  BacktestView,
  CreditPolicyDocument,
  FunnelResponse,
  PartnerKeyView,
  PolicyDetailView,
  PolicyVersionView,
  SignerView,
  StaffSessionView,
  StaffView,
  WebhookEndpointView,
  WebhookSendView,
} from '@provee/domain';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { BackofficeApp } from '../features/backoffice/app.js';

export const APPLICATION_ID = '5b1f7a52-3c1e-4b8e-9a0f-2d6c1e8f4a10';

let sequence = 0;
const uuid = () => `00000000-0000-4000-8000-${String((sequence += 1)).padStart(12, '0')}`;

export function createStaff(overrides: Partial<StaffView> = {}): StaffView {
  return {
    id: uuid(),
    email: 'ana.nunez@provee.example',
    name: 'Ana Núñez Peña',
    role: 'analyst',
    active: true,
    locked_until: null,
    last_login_at: '2025-05-02T13:00:00.000Z',
    created_at: '2025-01-10T09:00:00.000Z',
    second_factor: true,
    must_enrol: false,
    ...overrides,
  };
}

/** A session view: active, with an authenticator app and recovery codes, the last factor just given. */
export function createSession(overrides: Partial<StaffSessionView> = {}): StaffSessionView {
  return {
    stage: 'active',
    staff: createStaff(),
    auth_method: 'password',
    factors: ['totp', 'recovery_code'],
    step_up_until: new Date(Date.now() + 10 * 60_000).toISOString(),
    ...overrides,
  };
}

export function createSummary(overrides: Partial<ApplicationSummary> = {}): ApplicationSummary {
  return {
    id: uuid(),
    phone: '(809) 555-0142',
    full_name: 'José Ramírez Ortiz',
    business_name: 'Colmado La Esquina',
    next_step: 'ABOUT_STORE',
    status: 'IN_PROGRESS',
    utm_source: 'facebook',
    utm_campaign: 'mayo',
    created_at: '2025-05-01T14:00:00.000Z',
    updated_at: '2025-05-02T10:30:00.000Z',
    guarantor_phone_shared: false,
    ...overrides,
  };
}

export function createChain(overrides: Partial<AuditChainView> = {}): AuditChainView {
  return {
    chain: 'application',
    valid: true,
    broken_at: null,
    reason: null,
    events: [5, 6, 7].map((id, index) => ({
      id,
      type: ['user.registered', 'consent.given', 'decision.made'][index]!,
      actor: index === 2 ? 'system' : 'user',
      actor_name: index === 2 ? 'Sistema' : 'Solicitante',
      at: `2025-05-01T14:0${index}:00.000Z`,
      payload: { step: 'ACCOUNT_BUREAU', n: index },
    })),
    total: 3,
    older_cursor: null,
    ...overrides,
  };
}

export function createSigner(overrides: Partial<SignerView> = {}): SignerView {
  return {
    id: uuid(),
    person_type: 'titular',
    aval_id: null,
    name: 'José Ramírez Ortiz',
    state: 'UNDER_REVIEW',
    attempts_used: 1,
    attempts_left: 2,
    extra_attempts: 0,
    signed_at: null,
    verifications: [
      {
        id: uuid(),
        verification_type: 'VERIFICATION',
        provider: 'builtin',
        status: 'UNDER_REVIEW',
        created_at: '2025-05-02T09:00:00.000Z',
        answered_at: null,
        answered_by: null,
        note: null,
        documents: [
          { id: uuid(), kind: 'id_front', format: 'jpeg', bytes: 120_000 },
          { id: uuid(), kind: 'selfie', format: 'jpeg', bytes: 90_000 },
        ],
      },
    ],
    ...overrides,
  };
}

/** An application as an analyst reads it (nothing masked); any part can be replaced. */
export function createDetail(overrides: Partial<ApplicationDetail> = {}): ApplicationDetail {
  return {
    id: APPLICATION_ID,
    phone: '(809) 555-0142',
    next_step: 'PENDING_APPROVAL',
    status: 'IN_PROGRESS',
    country: 'do',
    created_at: '2025-05-01T14:00:00.000Z',
    updated_at: '2025-05-02T10:30:00.000Z',
    sensitive_visible: true,
    person: {
      name: 'José',
      lastname: 'Ramírez',
      maternal_lastname: 'Ortiz',
      tax_id: '001-1234567-8',
      birth_date: '1988-03-14',
      marital_status: 'Casado',
      length_of_residency_in_years: 6,
    },
    utm: { source: 'facebook', medium: 'cpc', campaign: 'mayo' },
    business: { name: 'Colmado La Esquina', business_type: 'Colmado', sales_range_id: 2, business_age_years: 4 },
    address: {
      zip_code: '10101',
      state: 'Distrito Nacional',
      city: 'Santo Domingo',
      neighborhood: 'Gazcue',
      street_name: 'Calle Mercedes',
      street_number: '12',
      apartment_number: null,
      municipality_id: null,
      neighborhood_typed: false,
      neighborhood_reviewed_at: null,
    },
    consents: [],
    bureau_queries: [],
    lender_decisions: [],
    decisions: [],
    guarantors: [],
    signers: [createSigner()],
    contract: null,
    advisor_contacts: [],
    messages: [],
    timeline: [createChain()],
    ...overrides,
  };
}

/** A webhook endpoint that receives every event and answers (issue 30). */
export function createEndpoint(overrides: Partial<WebhookEndpointView> = {}): WebhookEndpointView {
  return {
    id: uuid(),
    url: 'https://sistemas.prestamista.example/webhooks/provee',
    description: 'Originación',
    event_types: [],
    enabled: true,
    disabled_at: null,
    disabled_reason: null,
    failing_since: null,
    previous_secret_until: null,
    created_at: '2025-04-20T15:00:00.000Z',
    ...overrides,
  };
}

/** A send of the delivery log: failed for good after its tries. */
export function createSend(overrides: Partial<WebhookSendView> = {}): WebhookSendView {
  return {
    id: uuid(),
    event_id: 'evt_41',
    type: 'application.step_changed',
    application_id: APPLICATION_ID,
    sequence: 4,
    status: 'FAILED',
    attempts: 8,
    last_status_code: 502,
    last_error: 'El destino respondió 502 Bad Gateway',
    last_attempt_at: '2025-05-04T18:30:00.000Z',
    next_attempt_at: null,
    delivered_at: null,
    created_at: '2025-05-01T14:05:00.000Z',
    ...overrides,
  };
}

export function createPartnerKey(overrides: Partial<PartnerKeyView> = {}): PartnerKeyView {
  return {
    id: uuid(),
    name: 'Sistema de originación',
    prefix: 'pk_live_7f3a',
    scopes: ['applications:read', 'decisions:write'],
    expires_at: '2099-04-20T15:00:00.000Z',
    revoked_at: null,
    last_used_at: null,
    created_at: '2025-04-20T15:00:00.000Z',
    ...overrides,
  };
}

/** The lender's approval, recorded by an analyst. */
export function createLenderDecision(
  overrides: Partial<ApplicationDetail['lender_decisions'][number]> = {},
): ApplicationDetail['lender_decisions'][number] {
  return {
    id: uuid(),
    outcome: 'APPROVED',
    amount: 40_000,
    currency: 'DOP',
    term_months: 12,
    annual_rate: 18.5,
    reason: null,
    reference: null,
    decided_by: 'staff:11111111-2222-4333-8444-555555555555',
    decided_by_name: 'Ana Núñez Peña (analista)',
    decided_at: '2025-05-03T16:00:00.000Z',
    ...overrides,
  };
}

/** A policy document as the Dominican default ships it (version 1). */
export function createPolicyDocument(overrides: Partial<CreditPolicyDocument> = {}): CreditPolicyDocument {
  return {
    version: '2026-11-01',
    description: 'Política de lanzamiento.',
    eligibility: {
      min_age: 18,
      max_age: 80,
      allowed_cities_only: true,
      min_business_age_years: 1,
      min_sales_range: 1,
      min_score: 500,
      max_delinquencies: 0,
      max_recent_inquiries: 12,
      thin_file: 'approve',
    },
    reasons: { min_score: 'Puntaje de buró insuficiente' },
    guarantor: { min_score: 550, max_delinquencies: 0, thin_file: 'reject' },
    amount: { by_sales_range: [10_000, 10_000, 12_000], score_bands: [{ min_score: 0, factor: 1 }], cap: 10_000 },
    ...overrides,
  };
}

/** A version of the list: version 1, published by the first start and live. */
export function createPolicyVersion(overrides: Partial<PolicyVersionView> = {}): PolicyVersionView {
  return {
    id: uuid(),
    number: 1,
    label: '2026-11-01',
    status: 'PUBLISHED',
    live: true,
    shadow: false,
    description: 'Política de lanzamiento.',
    author: { id: null, name: 'Versión inicial' },
    based_on_number: null,
    revision: 1,
    created_at: '2026-11-01T12:00:00.000Z',
    updated_at: '2026-11-01T12:00:00.000Z',
    published_at: '2026-11-01T12:00:00.000Z',
    published_by: 'Versión inicial',
    ...overrides,
  };
}

/** An analyst's draft v2 (based on version 1) as its author reads it: editable, not publishable by them. */
export function createPolicyDetail(overrides: Partial<PolicyDetailView> = {}): PolicyDetailView {
  return {
    ...createPolicyVersion({
      number: 2,
      label: 'v2',
      status: 'DRAFT',
      live: false,
      author: { id: uuid(), name: 'Ana Núñez Peña' },
      based_on_number: 1,
      revision: 3,
      created_at: '2026-11-20T14:00:00.000Z',
      updated_at: '2026-11-20T15:00:00.000Z',
      published_at: null,
      published_by: null,
    }),
    document: createPolicyDocument({ version: 'v2' }),
    changes_from_live: [],
    live_label: '2026-11-01',
    may_edit: true,
    may_publish: false,
    publish_refusal: 'Publicar una versión le corresponde a una persona administradora.',
    may_activate: false,
    ...overrides,
  };
}

/** A finished backtest of v2 over May: one approval of version 1 refused by v2 for the business age. */
export function createBacktest(overrides: Partial<BacktestView> = {}): BacktestView {
  return {
    id: uuid(),
    policy_id: uuid(),
    policy_label: 'v2',
    revision: 2,
    live_label: '2026-11-01',
    from: '2026-11-01',
    to: '2026-11-30',
    utm_source: null,
    status: 'DONE',
    processed: 4,
    total: 4,
    result: {
      as_decided: { decisions: 4, approved: 3, approval_rate: 0.75 },
      live: { decisions: 4, approved: 3, approval_rate: 0.75 },
      tested: { decisions: 4, approved: 2, approval_rate: 0.5 },
      approved_to_rejected: 1,
      rejected_to_approved: 0,
      skipped: 0,
      flips: [
        {
          decision_id: uuid(),
          application_id: APPLICATION_ID,
          decided_at: '2026-11-12T15:30:00.000Z',
          live: 'APPROVED',
          tested: 'REJECTED',
          reasons: ['min_business_age_years'],
        },
      ],
      reasons: [
        { rule: 'min_business_age_years', live: 0, tested: 1 },
        { rule: 'min_score', live: 1, tested: 1 },
      ],
      duration_ms: 12,
    },
    created_at: '2026-11-30T16:00:00.000Z',
    finished_at: '2026-11-30T16:00:00.000Z',
    ...overrides,
  };
}

type Step = FunnelResponse['data']['steps'][number];
export const createFunnelStep = (overrides: Partial<Step> & Pick<Step, 'key' | 'label' | 'reached'>): Step => ({
  conversion: null,
  median_seconds_from_previous: null,
  ...overrides,
});

export function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const envelope = (status: number, code: string, readable: string, issues?: unknown[]) =>
  json(status, { code, message: code.toLowerCase(), readable_message: readable, ...(issues ? { issues } : {}) });

export interface Call {
  method: string;
  url: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

/** fetch answered by `answer` (undefined → 404); every call is recorded. */
export function stubFetch(answer: (call: Call) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const call = { method: init?.method ?? 'GET', url, body, credentials: init?.credentials };
      calls.push(call);
      return answer(call) ?? envelope(404, 'NOT_FOUND', 'No encontrado');
    }),
  );
  return calls;
}

/** GET /session answers `staff` signed in (or the session view given); other calls go to `answer`. */
export function stubSignedIn(
  staff: StaffView | StaffSessionView,
  answer: (call: Call) => Response | undefined = () => undefined,
) {
  const view = 'stage' in staff ? staff : createSession({ staff });
  return stubFetch((call) =>
    call.method === 'GET' && call.url === '/api/backoffice/session' ? json(200, { data: view }) : answer(call),
  );
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search + location.hash}</output>;
}

/** The back office at `path`, as the app's router mounts it (`strict`: in StrictMode, as app/providers.tsx does). */
export function renderBackoffice(path: string, { strict = false } = {}) {
  const app = (
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/backoffice/*" element={<BackofficeApp />} />
        <Route path="*" element={<p>Fuera del back office</p>} />
      </Routes>
      <Where />
    </MemoryRouter>
  );
  return render(strict ? <StrictMode>{app}</StrictMode> : app);
}
