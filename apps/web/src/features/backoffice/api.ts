import type {
  ContractCheck,
  AddressReviewBody,
  AdvisorTaskView,
  AnyCall,
  ApplicationsQuery,
  CallAnswer,
  CallOf,
  CallRequest,
  ExtraAttemptBody,
  IssueContractLinkBody,
  RegisterGuarantorBody,
  ReportQuery,
  ReviewDecisionBody,
  Route,
} from '@provee/domain';
import {
  advisorQueueRoute,
  applicationContractEvidenceRoute,
  applicationContractRoute,
  applicationDetailRoute,
  checkContractRoute,
  claimAdvisorTaskRoute,
  decideVerificationRoute,
  exportApplicationsRoute,
  exportConsentsRoute,
  finishAdvisorTaskRoute,
  funnelRoute,
  grantExtraAttemptRoute,
  identityDocumentImageRoute,
  issueContractLinkRoute,
  listApplicationsRoute,
  neighborhoodsRoute,
  registerGuarantorRoute,
  resendInvitationRoute,
  retryBureauRoute,
  reviewAddressRoute,
} from '@provee/domain';
import { urlOf } from '../../shared/lib/api-request.js';

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
  // A file (a Blob) goes as it is, with its own type; anything else as JSON.
  const file = options.body instanceof Blob ? options.body : undefined;
  if (options.body !== undefined) headers['content-type'] = file ? file.type : 'application/json';
  let response: Response;
  try {
    response = await fetch(path.startsWith('/api/') ? path : `${API}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: file ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
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

/** What a back-office call takes: its params, query and body as the call's schemas say, and how to send it. */
type CallOptions<C extends AnyCall> = Omit<Options, 'body'> & CallRequest<C>;
// Call by call (distributed over a union of calls): the three parts of every call of the contract
// crossed with one another would be a union too large for TypeScript (TS2590).
type Arguments<C extends AnyCall> = C extends unknown
  ? object extends CallRequest<C>
    ? [options?: CallOptions<C>]
    : [options: CallOptions<C>]
  : never;

/**
 * A call of the contract (a route of `@provee/domain`), typed by it, with the back office's
 * session and errors (`request`). A POST whose call takes no body still sends `{}`, as every
 * back-office write always has: JSON, never a form a cross-site page could post.
 */
export function backofficeRequest<R extends Route>(
  route: R,
  ...[options]: Arguments<CallOf<R>>
): Promise<CallAnswer<CallOf<R>>> {
  const given = options as unknown as (Options & { params?: object; query?: Query }) | undefined;
  const { params, query, body, ...rest } = given ?? {};
  const sent = body ?? (route.method === 'POST' ? {} : undefined);
  return request(route.method, urlOf(route, { params }) + toQuery(query ?? {}), { ...rest, body: sent });
}

type Query = Record<string, string | number | boolean | undefined>;

/** `?a=1&b=2` from the filled values only ('' and undefined are left out). */
export function toQuery(params: Query): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The list's filters as the address bar holds them: every value a string. */
export type ApplicationFilters = Partial<Record<keyof ApplicationsQuery, string>>;

export const applications = {
  list: (filters: ApplicationFilters) =>
    // The address bar's strings go as they are: the server checks and converts them.
    backofficeRequest(listApplicationsRoute, { query: filters as ApplicationsQuery }).then((r) => r.data),
  detail: (id: string) =>
    backofficeRequest(applicationDetailRoute, { params: { applicationId: id } }).then((r) => r.data),
};

const ofApplication = (id: string) => ({ applicationId: id });
export const actions = {
  registerGuarantor: (id: string, body: RegisterGuarantorBody) =>
    backofficeRequest(registerGuarantorRoute, { params: ofApplication(id), body }),
  resendInvitation: (id: string, avalId: string) =>
    backofficeRequest(resendInvitationRoute, { params: { ...ofApplication(id), avalId } }),
  retryBureau: (id: string) => backofficeRequest(retryBureauRoute, { params: ofApplication(id) }),
  reviewAddress: (id: string, body: AddressReviewBody) =>
    backofficeRequest(reviewAddressRoute, { params: ofApplication(id), body }),
  issueContractLink: (id: string, body: IssueContractLinkBody) =>
    backofficeRequest(issueContractLinkRoute, { params: ofApplication(id), body }),
  decideVerification: (id: string, verificationId: string, body: ReviewDecisionBody) =>
    backofficeRequest(decideVerificationRoute, { params: { ...ofApplication(id), verificationId }, body }),
  extraAttempt: (id: string, signerId: string, body: ExtraAttemptBody) =>
    backofficeRequest(grantExtraAttemptRoute, { params: { ...ofApplication(id), signerId }, body }),
  /** "¿Es este documento el que firmamos?": the file as the PDF body, whatever type the browser gave it. */
  checkContract: (id: string, file: Blob) =>
    request<{ data: ContractCheck }>('POST', urlOf(checkContractRoute, { params: ofApplication(id) }), {
      body: new Blob([file], { type: 'application/pdf' }),
    }).then((r) => r.data),
};

/** Where the browser opens files itself (the cookie goes along on same-origin requests). */
export const files = {
  identityDocument: (id: string, documentId: string) =>
    urlOf(identityDocumentImageRoute, { params: { ...ofApplication(id), documentId } }),
  contract: (id: string) => urlOf(applicationContractRoute, { params: ofApplication(id) }),
  contractEvidence: (id: string) => urlOf(applicationContractEvidenceRoute, { params: ofApplication(id) }),
  export: (kind: 'applications' | 'consents', from: string, to: string) =>
    urlOf(kind === 'applications' ? exportApplicationsRoute : exportConsentsRoute) + toQuery({ from, to }),
};

export type TaskSource = AdvisorTaskView['source'];
const task = (source: TaskSource, sourceId: string) => ({ source, sourceId });

export const advisorQueue = {
  list: (includeDone: boolean) =>
    backofficeRequest(advisorQueueRoute, { query: { include_done: includeDone ? 'true' : 'false' } }).then(
      (r) => r.data,
    ),
  claim: (source: TaskSource, sourceId: string) =>
    backofficeRequest(claimAdvisorTaskRoute, { params: task(source, sourceId) }),
  done: (source: TaskSource, sourceId: string, note?: string) =>
    backofficeRequest(finishAdvisorTaskRoute, { params: task(source, sourceId), body: note ? { note } : {} }),
};

export const reports = {
  funnel: (query: ReportQuery) => backofficeRequest(funnelRoute, { query }).then((r) => r.data),
};

/** The public catalogue (no session needed): a city's neighbourhoods, to correct a typed one. */
export const neighborhoods = (cityId: number) =>
  backofficeRequest(neighborhoodsRoute, { params: { id: cityId } }).then((r) => r.data);
