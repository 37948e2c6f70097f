import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import { staffMay, type StaffPermission, type StaffRole } from '@provee/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { staff } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { staffSessionStore } from './session-store.js';
import type { StaffRow } from './staff.service.js';

declare module 'fastify' {
  interface Session {
    staffId?: string;
    ip?: string;
    userAgent?: string;
  }
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
    // Secure is set per login from the request's protocol: the plugin's own 'auto' would also turn
    // SameSite down to Lax over http (see staff.routes.ts).
    cookie: { path: BACKOFFICE_API_PREFIX, httpOnly: true, sameSite: 'strict', secure: false },
  });
}

const UNAUTHENTICATED = new AppError(
  401,
  'STAFF_UNAUTHENTICATED',
  'no staff session',
  'Tu sesión terminó. Vuelve a iniciar sesión.',
);
const FORBIDDEN = new AppError(403, 'FORBIDDEN', 'role not allowed', 'Tu rol no permite esta acción.');

/** The staff member of the request's session; 401 without one (a shopkeeper's token is no session). */
export async function requireStaff(request: FastifyRequest, permission?: StaffPermission): Promise<StaffRow> {
  const staffId = request.session?.staffId;
  if (!staffId) throw UNAUTHENTICATED;
  const member =
    request.staffMember ?? (await request.server.db.select().from(staff).where(eq(staff.id, staffId)).limit(1))[0];
  if (!member?.active) throw UNAUTHENTICATED;
  request.staffMember = member;
  if (permission && !staffMay(member.role as StaffRole, permission)) throw FORBIDDEN;
  return member;
}

/** A route's preHandler: a session, and the role's permission. */
export const staffOnly = (permission?: StaffPermission) => async (request: FastifyRequest) => {
  await requireStaff(request, permission);
};

export const staffActor = (member: StaffRow) => `staff:${member.id}`;
