import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import { staffMay, type StaffLoginStage, type StaffPermission, type StaffRole } from '@provee/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { findStaffById, type StaffRow } from './accounts.store.js';
import { staffSessionStore, type StoredSession } from './session-adapter.js';

declare module 'fastify' {
  // The session keeps what session-adapter.ts stores.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Session extends StoredSession {}
  interface FastifyRequest {
    staffMember?: StaffRow;
  }
}

export const STAFF_COOKIE = 'provee_staff';
export const BACKOFFICE_API_PREFIX = '/api/backoffice';

/**
 * Sessions for the back-office API only (the shopkeeper's API never reads this cookie): the
 * Fastify team's cookie and session plugins, the session id signed by @fastify/cookie, the session
 * itself server-side (staff_sessions). HttpOnly, SameSite=Strict, Secure over https, and only sent
 * to /api/backoffice.
 */
export async function registerStaffSessions(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyCookie);
  await scope.register(fastifySession, {
    secret: scope.secrets.key('staff-session').toString('hex'),
    cookieName: STAFF_COOKIE,
    store: staffSessionStore(scope),
    saveUninitialized: false,
    // Activity is recorded by the store on every read; the cookie itself lives as long as the browser.
    rolling: false,
    // Secure is set per request from its protocol (below): the plugin's own 'auto' would also turn
    // SameSite down to Lax over http.
    cookie: { path: BACKOFFICE_API_PREFIX, httpOnly: true, sameSite: 'strict', secure: false },
  });
  // Every save sends the cookie again (a login's steps, a passkey challenge): Secure whenever this
  // request came over https, not only on the request that opened the session.
  scope.addHook('preHandler', async (request) => {
    if (request.session) request.session.cookie.secure = request.protocol === 'https';
  });
}

const UNAUTHENTICATED = new AppError(
  401,
  'STAFF_UNAUTHENTICATED',
  'no staff session',
  'Tu sesión terminó. Vuelve a iniciar sesión.',
);
const FORBIDDEN = new AppError(403, 'FORBIDDEN', 'role not allowed', 'Tu rol no permite esta acción.');
export const STEP_UP_REQUIRED = new AppError(
  403,
  'STEP_UP_REQUIRED',
  'a recent second factor is required',
  'Por seguridad, confirma tu identidad con tu segundo factor para continuar.',
);

async function sessionMember(request: FastifyRequest): Promise<StaffRow> {
  const staffId = request.session?.staffId;
  if (!staffId) throw UNAUTHENTICATED;
  // The account as the session's read gave it (one round trip for both), else read now (a login's
  // own request, whose session was made in it).
  const readWithSession = request.session.member?.id === staffId ? request.session.member : undefined;
  const member = request.staffMember ?? readWithSession ?? (await findStaffById(request.server.db, staffId));
  if (!member?.active) throw UNAUTHENTICATED;
  request.staffMember = member;
  return member;
}

/**
 * The staff member of the request's session, once past the second factor; 401 without one (a
 * shopkeeper's token is no session, nor is a login waiting for its second factor).
 */
export async function requireStaff(
  request: FastifyRequest,
  permission?: StaffPermission,
  options: { stepUp?: boolean } = {},
): Promise<StaffRow> {
  const member = await sessionMember(request);
  if ((request.session.stage ?? 'active') !== 'active') throw UNAUTHENTICATED;
  if (permission && !staffMay(member.role as StaffRole, permission)) throw FORBIDDEN;
  if (options.stepUp && !stepUpFresh(request)) throw STEP_UP_REQUIRED;
  return member;
}

/** A login in one of these stages (the second-factor and enrolment calls). */
export async function requireStaffInStage(request: FastifyRequest, stages: StaffLoginStage[]): Promise<StaffRow> {
  const member = await sessionMember(request);
  if (!stages.includes(request.session.stage ?? 'active')) throw UNAUTHENTICATED;
  return member;
}

/** A route's onRequest hook for the second-factor and enrolment calls: a login in one of these stages. */
export const staffInStage = (stages: StaffLoginStage[]) => async (request: FastifyRequest) => {
  await requireStaffInStage(request, stages);
};

/** Until when the session's last second factor counts for step-up (STAFF_STEP_UP_SECONDS); null when none was given. */
export function stepUpUntil(request: FastifyRequest, stepUpSeconds: number): Date | null {
  const at = request.session?.factorAt;
  return at ? new Date(new Date(at).getTime() + stepUpSeconds * 1000) : null;
}

const stepUpFresh = (request: FastifyRequest) => {
  const until = stepUpUntil(request, request.server.config.STAFF_STEP_UP_SECONDS);
  return !!until && until > request.server.clock();
};

/**
 * A route's onRequest hook: a session past its second factor, the role's permission and, for
 * exports, identity images, contract downloads and staff management, a second factor given within
 * STAFF_STEP_UP_SECONDS.
 */
export const staffOnly =
  (permission?: StaffPermission, options: { stepUp?: boolean } = {}) =>
  async (request: FastifyRequest) => {
    await requireStaff(request, permission, options);
  };

export const staffActor = (member: StaffRow) => `staff:${member.id}`;
