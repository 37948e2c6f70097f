import type {
  ActionResponse,
  AddressReviewBody,
  AdvisorQueueResponse,
  AdvisorTaskView,
  ApplicationDetail,
  ApplicationsQuery,
  ApplicationsResponse,
  ExtraAttemptBody,
  FunnelResponse,
  IssueContractLinkBody,
  Neighborhood,
  RegisterGuarantorBody,
  ReportQuery,
  ReviewDecisionBody,
  StaffCreateBody,
  StaffListResponse,
  StaffLoginBody,
  StaffSessionResponse,
  StaffUpdateBody,
  StaffView,
} from '@provee/domain';

// The back office talks to its own API with its session cookie; the shopkeeper's client
// (shared/lib/api-client.ts) maps errors to SPEC §8 screens, which mean nothing to staff.
export const API = '/api/backoffice';

/** A non-2xx answer (or none): what the envelope said, for the screen to show. */
export class BackofficeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly readableMessage: string,
    readonly issues: { field: string; message: string }[] = [],
  ) {
    super(`${status} ${code}`);
  }
}

const NETWORK = 'No pudimos conectarnos con el servidor. Revisa tu conexión e intenta de nuevo.';

/** Called on a 401 (the session ended or never began); the layout sends the user to the login. */
let unauthorized: (() => void) | null = null;
export function onUnauthorized(listener: () => void): () => void {
  unauthorized = listener;
  return () => {
    if (unauthorized === listener) unauthorized = null;
  };
}

interface Options {
  body?: unknown;
  /** Off for the login itself: there a 401 means a wrong password, not an expired session. */
  redirectOn401?: boolean;
}

export async function request<T>(method: string, path: string, options: Options = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path.startsWith('/api/') ? path : `${API}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new BackofficeError(0, 'NETWORK_ERROR', NETWORK);
  }
  const text = await response.text();
  const json = text ? parseJson(text) : undefined;
  if (response.ok) return json as T;
  if (response.status === 401 && options.redirectOn401 !== false) unauthorized?.();
  throw toError(response.status, json);
}

function toError(status: number, json: unknown): BackofficeError {
  const envelope = (json ?? {}) as { code?: unknown; readable_message?: unknown; issues?: unknown };
  const readable =
    typeof envelope.readable_message === 'string' && envelope.readable_message
      ? envelope.readable_message
      : `Algo salió mal (error ${status}). Intenta de nuevo.`;
  const issues = Array.isArray(envelope.issues) ? (envelope.issues as BackofficeError['issues']) : [];
  return new BackofficeError(
    status,
    typeof envelope.code === 'string' ? envelope.code : 'HTTP_ERROR',
    readable,
    issues,
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `?a=1&b=2` from the filled values only ('' and undefined are left out). */
export function toQuery(params: Record<string, string | number | boolean | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

const app = (id: string, rest = '') => `/applications/${encodeURIComponent(id)}${rest}`;
const post = (path: string, body: unknown = {}) => request<ActionResponse>('POST', path, { body });

export const session = {
  login: (body: StaffLoginBody) =>
    request<StaffSessionResponse>('POST', '/session', { body, redirectOn401: false }).then((r) => r.data.staff),
  current: () => request<StaffSessionResponse>('GET', '/session').then((r) => r.data.staff),
  logout: () => request<void>('DELETE', '/session', { redirectOn401: false }),
};

export const staffAccounts = {
  list: () => request<StaffListResponse>('GET', '/staff').then((r) => r.data),
  create: (body: StaffCreateBody) => request<{ data: StaffView }>('POST', '/staff', { body }).then((r) => r.data),
  update: (id: string, body: StaffUpdateBody) =>
    request<{ data: StaffView }>('PATCH', `/staff/${encodeURIComponent(id)}`, { body }).then((r) => r.data),
};

/** The list's filters as the address bar holds them: every value a string. */
export type ApplicationFilters = Partial<Record<keyof ApplicationsQuery, string>>;

export const applications = {
  list: (filters: ApplicationFilters) =>
    request<ApplicationsResponse>('GET', `/applications${toQuery(filters)}`).then((r) => r.data),
  detail: (id: string) => request<{ data: ApplicationDetail }>('GET', app(id)).then((r) => r.data),
};

export const actions = {
  registerGuarantor: (id: string, body: RegisterGuarantorBody) => post(app(id, '/guarantors'), body),
  resendInvitation: (id: string, avalId: string) =>
    post(app(id, `/guarantors/${encodeURIComponent(avalId)}/invitation`)),
  retryBureau: (id: string) => post(app(id, '/bureau-retry')),
  reviewAddress: (id: string, body: AddressReviewBody) => post(app(id, '/address'), body),
  issueContractLink: (id: string, body: IssueContractLinkBody) => post(app(id, '/contract-links'), body),
  decideVerification: (id: string, verificationId: string, body: ReviewDecisionBody) =>
    post(app(id, `/verifications/${encodeURIComponent(verificationId)}/decision`), body),
  extraAttempt: (id: string, signerId: string, body: ExtraAttemptBody) =>
    post(app(id, `/signers/${encodeURIComponent(signerId)}/extra-attempt`), body),
};

/** Where the browser opens files itself (the cookie goes along on same-origin requests). */
export const files = {
  identityDocument: (id: string, documentId: string) =>
    `${API}${app(id, `/identity-documents/${encodeURIComponent(documentId)}`)}`,
  contract: (id: string) => `${API}${app(id, '/contract')}`,
  contractEvidence: (id: string) => `${API}${app(id, '/contract/evidence')}`,
  export: (kind: 'applications' | 'consents', from: string, to: string) =>
    `${API}/exports/${kind}.csv${toQuery({ from, to })}`,
};

export type TaskSource = AdvisorTaskView['source'];
const task = (source: TaskSource, sourceId: string, action: string) =>
  `/advisor-queue/${source}/${encodeURIComponent(sourceId)}/${action}`;

export const advisorQueue = {
  list: (includeDone: boolean) =>
    request<AdvisorQueueResponse>('GET', `/advisor-queue${toQuery({ include_done: includeDone })}`).then((r) => r.data),
  claim: (source: TaskSource, sourceId: string) =>
    request<unknown>('POST', task(source, sourceId, 'claim'), { body: {} }),
  done: (source: TaskSource, sourceId: string, note?: string) =>
    request<unknown>('POST', task(source, sourceId, 'done'), { body: note ? { note } : {} }),
};

export const reports = {
  funnel: (query: ReportQuery) => request<FunnelResponse>('GET', `/funnel${toQuery(query)}`).then((r) => r.data),
};

/** The public catalogue (no session needed): a city's neighbourhoods, to correct a typed one. */
export const neighborhoods = (cityId: number) =>
  request<{ data: Neighborhood[] }>('GET', `/api/v1/cities/${cityId}/neighborhoods`).then((r) => r.data);
