import type { StaffFactorMethod, StaffSessionView } from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { updateStaffAccount, type StaffRow } from './accounts.store.js';
import {
  clearCounters,
  countAttempt,
  dailyCounter,
  emailCounter,
  factorCounter,
  forgiveAttempt,
  ipCounter,
  LOCKED,
  recordFailure,
} from './login-failures.js';
import { relyingParty } from './passkeys.js';
import { sessionLimits } from './session-adapter.js';
import { deleteLapsedStaffSessions } from './sessions.store.js';
import { stepUpUntil } from './staff-auth.js';
import { describeStaffAndFactors, mustEnrol, secondFactors, staffChain } from './staff.service.js';

/**
 * A login's session: opened at the first factor (password or single sign-on) in the stage the
 * account calls for, then moved to 'active' by the second factor. Every move gets a new session id.
 * The request carries the session (and the client's address); the rest comes in the deps.
 */
export interface SessionDeps {
  db: Executor;
  clock: () => Date;
  /** The key of the e-mail's lock-out counters (login-failures.ts). */
  loginKey: Buffer;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'NODE_ENV' | 'APP_NAME' | 'STAFF_STEP_UP_SECONDS'>;
}

const audit = (
  deps: Pick<SessionDeps, 'db' | 'clock'>,
  request: FastifyRequest,
  member: StaffRow,
  type: string,
  payload: Record<string, unknown> = {},
) =>
  appendAuditEvent(deps.db, {
    applicationId: staffChain(member.id),
    actor: staffChain(member.id),
    type,
    payload: { ip: request.ip, user_agent: request.headers['user-agent']?.slice(0, 300) ?? null, ...payload },
    at: deps.clock(),
  });

async function renewSession(request: FastifyRequest, state: Partial<FastifyRequest['session']>): Promise<void> {
  const kept = {
    staffId: request.session.staffId,
    stage: request.session.stage,
    authMethod: request.session.authMethod,
    factorAt: request.session.factorAt,
    epoch: request.session.epoch,
  };
  // A new session id for every step: an id planted or seen before the step opens nothing after it.
  await request.session.regenerate();
  request.session.cookie.secure = request.protocol === 'https'; // a new Session: the preHandler's flag is gone
  Object.assign(request.session, kept, state, {
    challenge: null,
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300),
    fresh: true,
  });
}

async function completeLogin(
  deps: Pick<SessionDeps, 'db' | 'clock'>,
  request: FastifyRequest,
  member: StaffRow,
  method: string,
): Promise<void> {
  const now = deps.clock();
  await updateStaffAccount(deps.db, member.id, { lastLoginAt: now });
  // This person's sessions that lapsed (idle or too old) go, so the table does not only grow.
  await deleteLapsedStaffSessions(deps.db, member.id, sessionLimits(now));
  await audit(deps, request, member, 'staff.login', { method, auth_method: request.session.authMethod });
}

/** After the password or the identity provider: the session waits for the second factor, or for its enrolment. */
export async function openStaffSession(
  deps: Pick<SessionDeps, 'db' | 'clock'>,
  request: FastifyRequest,
  member: StaffRow,
  authMethod: 'password' | 'sso',
  providerFactorAt?: Date,
): Promise<void> {
  const factors = await secondFactors(deps.db, member.id);
  const stage = providerFactorAt
    ? 'active'
    : factors.length > 0
      ? 'factor'
      : mustEnrol(member, factors)
        ? 'enrol'
        : 'active';
  await renewSession(request, {
    staffId: member.id,
    epoch: member.sessionEpoch,
    stage,
    authMethod,
    factorAt: providerFactorAt?.toISOString() ?? null,
  });
  if (stage === 'active')
    await completeLogin(deps, request, member, providerFactorAt ? 'identity-provider' : 'password');
}

export const INVALID_FACTOR = new AppError(
  401,
  'INVALID_FACTOR',
  'wrong second factor',
  'El código no es correcto o ya se usó. Revisa tu aplicación e intenta de nuevo.',
);

/**
 * Checks a second factor: counted per account and per client address before it is looked at (five
 * wrong ones lock the account's second factor for the lock time). A right one completes a waiting
 * login (and starts its e-mail's failure count again) or renews the step-up time of an active session.
 */
export async function giveSecondFactor(
  deps: Pick<SessionDeps, 'db' | 'clock' | 'loginKey'>,
  request: FastifyRequest,
  member: StaffRow,
  method: StaffFactorMethod,
  check: () => Promise<boolean>,
): Promise<void> {
  const { db } = deps;
  const now = deps.clock();
  const completing = request.session.stage !== 'active';
  // A login's codes count against the account (an attacker with the password may open many logins);
  // a step-up's against its session (a stolen session cannot lock the owner's factor).
  const counters = [
    factorCounter(member.id, completing ? undefined : request.session.sessionId),
    ipCounter(request.ip),
  ];
  const open = await Promise.all(counters.map((counter) => countAttempt(db, counter, now)));
  if (!open.every(Boolean)) throw LOCKED;
  if (!(await check())) {
    await Promise.all(counters.map((counter) => recordFailure(db, counter, now)));
    await audit(deps, request, member, 'staff.factor_failed', { method });
    throw INVALID_FACTOR;
  }
  // The right factor clears its own count and the e-mail's; the address only forgets this attempt
  // (one client, many accounts).
  await clearCounters(db, [
    counters[0]!,
    emailCounter(deps.loginKey, member.email),
    dailyCounter(deps.loginKey, member.email),
  ]);
  await forgiveAttempt(db, counters[1]!);
  await renewSession(request, { stage: 'active', factorAt: now.toISOString() });
  if (completing) await completeLogin(deps, request, member, method);
  else await audit(deps, request, member, 'staff.step_up', { method });
}

/** After enrolling a factor: the login goes on (the enrolment proved it) with a fresh step-up time. */
export async function factorEnrolled(
  deps: Pick<SessionDeps, 'db' | 'clock'>,
  request: FastifyRequest,
  member: StaffRow,
  method: StaffFactorMethod,
) {
  const completing = request.session.stage !== 'active';
  await renewSession(request, { stage: 'active', factorAt: deps.clock().toISOString() });
  if (completing) await completeLogin(deps, request, member, method);
}

export async function sessionView(
  deps: SessionDeps,
  request: FastifyRequest,
  member: StaffRow,
): Promise<StaffSessionView> {
  const { db } = deps;
  const { view, factors } = await describeStaffAndFactors(db, deps.loginKey, member, deps.clock());
  return {
    stage: request.session.stage ?? 'active',
    staff: view,
    auth_method: request.session.authMethod ?? 'password',
    factors: factors.filter((method) => method !== 'passkey' || relyingParty(deps.config, request) !== null),
    step_up_until: stepUpUntil(request, deps.config.STAFF_STEP_UP_SECONDS)?.toISOString() ?? null,
  };
}
