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

/**
 * Called on a 403 STEP_UP_REQUIRED (the last second factor is too old for this call): the layout
 * asks for it and answers whether it was given; the call is then made once more.
 */
let stepUp: (() => Promise<boolean>) | null = null;
export function onStepUpRequired(listener: () => Promise<boolean>): () => void {
  stepUp = listener;
  return () => {
    if (stepUp === listener) stepUp = null;
  };
}

/** A 401 with these codes is a wrong password or code typed now, not a session that ended. */
const WRONG_CREDENTIALS = new Set(['INVALID_LOGIN', 'INVALID_FACTOR']);

/** The server's clock minus this one's (from the Date header): step_up_until is the server's time. */
let serverOffsetMs = 0;
export const serverNow = () => Date.now() + serverOffsetMs;

interface Options {
  body?: unknown;
  /** Off for the login itself: there a 401 means a wrong password, not an expired session. */
  redirectOn401?: boolean;
  /** Off for the retry after a step-up (and for calls that must not ask). */
  askStepUp?: boolean;
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
  const date = Date.parse(response.headers?.get('date') ?? '');
  if (!Number.isNaN(date)) serverOffsetMs = date - Date.now();
  const text = await response.text();
  const json = text ? parseJson(text) : undefined;
  if (response.ok) return json as T;
  const error = toError(response.status, json);
  if (response.status === 401 && options.redirectOn401 !== false && !WRONG_CREDENTIALS.has(error.code))
    unauthorized?.();
  if (error.code === 'STEP_UP_REQUIRED' && options.askStepUp !== false && stepUp && (await stepUp()))
    return request<T>(method, path, { ...options, askStepUp: false });
  throw error;
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
