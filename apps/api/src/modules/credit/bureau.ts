import type { AvalType } from '@provee/domain';
import {
  BureauError,
  BureauIntegrityError,
  BureauRefusedError,
  type BureauAddress,
  type BureauSubject,
} from '../../providers/bureau/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { findMunicipalityState, type CatalogAddress } from '../catalog/index.js';
import type { JobKind } from '../jobs/index.js';
import { describeApplicant, type Applicant } from '../users/index.js';
import {
  claimBureauQuery,
  findBureauQuery,
  markBureauQueryFailed,
  type BureauQueryFailure,
  type BureauQueryRow,
} from './bureau-queries.store.js';
import {
  afterUnclaimed,
  attemptLeaseMs,
  BUREAU_QUERY_JOB,
  scheduleAttempt,
  type DueRowJob,
} from './bureau-schedule.js';
import { findConsent } from './consents.store.js';
import { AttemptOutlivedClaim, decideApplicant, decideGuarantor } from './decision.js';
import type { BureauDeps } from './deps.js';

/** Who a query asks about: the shopkeeper (with what the decision reads of them) or a guarantor. */
export type BureauParty =
  | { kind: 'applicant'; subject: BureauSubject; applicant: Applicant }
  | { kind: 'guarantor'; subject: BureauSubject; avalId: string; avalType: AvalType };

/**
 * One bureau attempt while the caller waits up to BUREAU_SYNC_WAIT_MS; the jobs of the query
 * finish otherwise (a failure enqueues the next try; the consent's own job, held back until this
 * attempt's lease is over, takes the query if this process died meanwhile).
 */
export async function queryBureauBriefly(deps: BureauDeps, queryId: string): Promise<void> {
  const attempt = runBureauAttempt(deps, queryId);
  await Promise.race([attempt, new Promise((resolve) => setTimeout(resolve, deps.config.BUREAU_SYNC_WAIT_MS))]);
}

/**
 * One try at the bureau for a due query. The claim (an UPDATE with a lease) makes sure two
 * processes never query twice at once; a failure schedules the next try with back-off. False when
 * the query was not there to claim (not due, held by another attempt, or ended).
 */
export async function runBureauAttempt(deps: BureauDeps, queryId: string): Promise<boolean> {
  const { config } = deps;
  const now = deps.clock();
  const claimed = await claimBureauQuery(deps.db, queryId, now, new Date(now.getTime() + attemptLeaseMs(config)));
  if (!claimed) return false;
  const attempt = claimed.attempts + 1;
  // Every bureau call is logged (ids only): a query costs the lender, and the logs of all the
  // processes together show that no query ran twice (npm run scale-test).
  deps.log.info({ queryId, attempt }, 'bureau attempt started');
  // The attempt's time runs from its claim, within its lease (BUREAU_TIMEOUT_MS + 5 s).
  const deadline = AbortSignal.timeout(config.BUREAU_TIMEOUT_MS);
  try {
    const party = await partyOfQuery(deps, claimed, attempt);
    const report = await deps.bureau.query(party.subject, deadline);
    const answered = { query: claimed, attempt, subject: party.subject, report };
    if (party.kind === 'guarantor') await decideGuarantor(deps, { ...answered, ...party });
    else await decideApplicant(deps, { ...answered, applicant: party.applicant });
    deps.log.info({ queryId, attempt }, 'bureau answered');
  } catch (error) {
    // Past its lease another attempt took the query: that one decides; this one changed nothing.
    if (error instanceof AttemptOutlivedClaim) deps.log.warn({ queryId, attempt }, 'bureau attempt outlived its claim');
    else await recordFailure(deps, claimed, attempt, error);
  }
  return true;
}

/**
 * The queue's side of a bureau query: one job per time the query is due (the consent's, each
 * retry's, an analyst's retry), which runs the attempt if the query is still due then.
 */
export function bureauQueryJob(deps: BureauDeps): JobKind<DueRowJob> {
  return {
    name: BUREAU_QUERY_JOB,
    // Tries of the job itself, not of the bureau (those are the query's, BUREAU_MAX_ATTEMPTS): while
    // another attempt holds the query, or it is due a moment later.
    retryLimit: 10,
    expireInSeconds: Math.ceil(attemptLeaseMs(deps.config) / 1000) + 60,
    concurrency: 4,
    async run(job) {
      if (await runBureauAttempt(deps, job.id)) return;
      afterUnclaimed(await findBureauQuery(deps.db, job.id), job);
    },
  };
}

/**
 * What is kept and shown of a failure: a bureau's own message (ours, no personal data), or only
 * the kind of an unexpected error — a database error's message carries its query's parameters
 * (the report, the person), which must reach neither the log nor the back office.
 */
export function safeMessage(error: unknown): string {
  if (error instanceof BureauError || error instanceof BureauRefusedError || error instanceof BureauIntegrityError)
    return error.message;
  return `error inesperado (${errorKind(error)})`;
}

/** An unexpected error's class and code, nothing of its message. */
export function errorKind(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : error.name;
}

/** The audit event of a query that stops for good, by why. */
const STOPPED_EVENT: Record<BureauQueryFailure, string> = {
  exhausted: 'bureau.gave_up',
  refused: 'bureau.refused',
  integrity: 'bureau.integrity_failed',
};

/** Why an attempt's failure stops the query for good, or null when it is tried again. */
function failureOf(error: unknown, attempt: number, maxAttempts: number): BureauQueryFailure | null {
  if (error instanceof BureauIntegrityError) return 'integrity';
  if (error instanceof BureauRefusedError) return 'refused';
  return attempt >= maxAttempts ? 'exhausted' : null;
}

/**
 * The attempt's failure: tried again after a pause that doubles, or stopped for good (every attempt
 * failed, the bureau refused the request, or its answer's signature did not verify). The
 * application waits at its step either way; the back office shows why.
 */
async function recordFailure(deps: BureauDeps, query: BureauQueryRow, attempt: number, error: unknown) {
  const { config } = deps;
  const failure = failureOf(error, attempt, config.BUREAU_MAX_ATTEMPTS);
  const delay = Math.min(config.BUREAU_RETRY_MAX_MS, config.BUREAU_RETRY_BASE_MS * 2 ** (attempt - 1));
  const message = safeMessage(error);
  const codes = error instanceof BureauRefusedError ? error.codes.slice(0, 10) : [];
  const failedAt = deps.clock();
  const queryId = query.id;
  // Logged before the claim is released: no other process's attempt can start before this line.
  // Ids, the status and the bureau's codes only: never the report.
  if (failure === 'integrity')
    deps.log.error({ queryId, attempt }, 'bureau answer signature did not verify: nothing in it was read');
  else if (failure === 'refused')
    deps.log.error(
      { queryId, attempt, status: (error as BureauRefusedError).status, codes },
      'bureau refused the query',
    );
  else if (error instanceof BureauError)
    deps.log.warn({ queryId, attempt, exhausted: !!failure }, 'bureau query failed');
  else deps.log.error({ error: errorKind(error), queryId, attempt }, 'bureau attempt failed unexpectedly');
  await deps.db.transaction(async (tx) => {
    const nextAttemptAt = new Date(failedAt.getTime() + delay);
    const moved = await markBureauQueryFailed(tx, query, {
      failure,
      attempts: attempt,
      nextAttemptAt,
      lastError: message.slice(0, 500),
      provider: deps.bureau.name,
      at: failedAt,
    });
    if (moved && !failure) await scheduleAttempt(tx, BUREAU_QUERY_JOB, queryId, nextAttemptAt, delay / 1000);
    if (moved && failure) {
      const payload = { query_id: queryId, attempts: attempt, last_error: message.slice(0, 200), codes };
      await appendAuditEvent(tx, {
        applicationId: query.userId,
        actor: 'system',
        type: STOPPED_EVENT[failure],
        payload,
        at: failedAt,
      });
    }
  });
}

/** Who the query asks about, under the folio of its consent. */
export async function partyOfQuery(
  deps: BureauDeps,
  query: Pick<BureauQueryRow, 'userId' | 'consentId'>,
  attempt: number,
): Promise<BureauParty> {
  const consent = await findConsent(deps.db, query.consentId);
  if (!consent) throw new Error('bureau query without consent');
  const asked = { country: deps.config.COUNTRY, consentFolio: consent.bureauFolio, attempt };
  if (consent.avalId) {
    // A guarantor: asked under their own tax id (the bureau keys on it) and, where the bureau files
    // people by them, their name's parts, the birth date their RFC carries and their home address.
    const aval = await deps.guarantorBureau.subject(deps, consent.avalId);
    if (!aval?.taxId) throw new Error('guarantor without tax id');
    const { person } = aval;
    const needsPerson = deps.bureau.needsPerson;
    if (needsPerson && !(person?.birthDate && person.address))
      throw new BureauRefusedError('el aval no tiene apellidos, fecha de nacimiento o domicilio', 0, [
        {
          codigo: 'persona',
          mensaje: 'Registra de nuevo al aval con sus apellidos, un RFC con fecha de nacimiento y su domicilio.',
        },
      ]);
    const subject = {
      ...asked,
      taxId: aval.taxId,
      name: person?.givenNames ?? aval.name,
      lastname: person?.lastname ?? '',
      maternalLastname: person?.maternalLastname ?? null,
      dob: person?.birthDate ?? '',
      address: needsPerson && person?.address ? await bureauAddress(deps, person.address, 'del aval') : null,
    };
    return { kind: 'guarantor', subject, avalId: consent.avalId, avalType: aval.avalType };
  }
  const applicant = await describeApplicant(deps, query.userId);
  const { person } = applicant ?? {};
  if (!applicant?.taxId || !person?.birthDate) throw new Error('application without tax id or birth date');
  const subject = {
    ...asked,
    taxId: applicant.taxId.canonical,
    name: person.name ?? '',
    lastname: person.lastname ?? '',
    maternalLastname: person.maternalLastname,
    dob: person.birthDate,
    address: deps.bureau.needsPerson ? await bureauAddress(deps, applicant.address, 'del negocio') : null,
  };
  return { kind: 'applicant', subject, applicant };
}

/** What an address to send is made of: a business address (older ones may lack their municipality) or a guarantor's. */
type BureauAddressSource = Pick<
  CatalogAddress,
  'municipalityId' | 'zipCode' | 'streetName' | 'streetNumber' | 'neighborhood' | 'city'
>;

/**
 * An address (the business's, a guarantor's home) as a bureau that files people by address is sent
 * it, with the state's code from the catalogue; a postcode the catalogue does not place in that
 * state is refused before the call (the bureau would refuse it too, after charging for the query).
 */
async function bureauAddress(
  deps: BureauDeps,
  address: (Omit<BureauAddressSource, 'municipalityId'> & { municipalityId: number | null }) | null,
  whose: 'del negocio' | 'del aval',
): Promise<BureauAddress> {
  const place =
    address?.municipalityId == null
      ? undefined
      : await findMunicipalityState(deps.db, address.municipalityId, address.zipCode);
  if (!address || !place)
    throw new BureauRefusedError(`la dirección ${whose} no está en el catálogo`, 0, [
      { codigo: 'domicilio', mensaje: `La dirección ${whose} no tiene municipio del catálogo.` },
    ]);
  if (!place.postcodeInState)
    throw new BureauRefusedError('el código postal no pertenece al estado', 0, [
      // Not the postcode itself: the message goes to the log and the audit chain.
      { codigo: 'CP', mensaje: `El código postal no pertenece al estado del domicilio ${whose}.` },
    ]);
  return {
    street: `${address.streetName} ${address.streetNumber}`.trim(),
    neighborhood: address.neighborhood,
    municipality: place.municipality,
    city: address.city,
    stateCode: place.stateCode,
    postcode: address.zipCode,
  };
}
