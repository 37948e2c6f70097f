import {
  createStaffCall,
  issuePasswordLinkCall,
  listStaffCall,
  resetStaffFactorsCall,
  updateStaffCall,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { issuePasswordLink } from './password-links.js';
import { staffActor, staffOnly } from './staff-auth.js';
import { staffDepsOf } from './staff-deps.js';
import { createStaff, describeStaff, listStaff, resetFactors, updateStaff } from './staff.service.js';

/** Where links to this server point: its public address, or the one the request came to. */
export const baseUrlOf = (request: FastifyRequest) =>
  request.server.config.PUBLIC_BASE_URL ?? `${request.protocol}://${request.host}`;

const OWN_ACCOUNT = new AppError(409, 'OWN_ACCOUNT', 'own account', 'No puedes cambiar tu propia cuenta.');

/** Staff accounts (admins): every change needs a recent second factor. */
export async function staffAccountRoutes(app: App): Promise<void> {
  const deps = staffDepsOf(app);
  const manage = staffOnly('manageStaff', { stepUp: true });
  const describe = (row: Parameters<typeof describeStaff>[2]) =>
    describeStaff(deps.db, deps.loginKey, row, deps.clock());
  /** An admin cannot lock themselves out (the last admin would leave nobody to manage accounts). */
  const notOwn = (request: FastifyRequest, staffId: string) => {
    if (staffId === request.staffMember!.id) throw OWN_ACCOUNT;
  };

  register(app, listStaffCall, { onRequest: staffOnly('manageStaff') }, async () => ({
    data: await listStaff(deps.db, deps.loginKey, deps.clock()),
  }));

  register(app, createStaffCall, { onRequest: manage }, async (request, reply) => {
    const by = staffActor(request.staffMember!);
    const row = await createStaff(deps, request.body, by);
    const link = deps.config.STAFF_PASSWORD_LOGIN
      ? await issuePasswordLink(deps, row.id, baseUrlOf(request), by)
      : null;
    return reply.status(201).send({
      data: {
        staff: await describe(row),
        password_link: link && { url: link.url, expires_at: link.expiresAt.toISOString() },
      },
    });
  });

  register(app, updateStaffCall, { onRequest: manage }, async (request) => {
    notOwn(request, request.params.staffId);
    const row = await updateStaff(deps, request.params.staffId, request.body, staffActor(request.staffMember!));
    return { data: await describe(row) };
  });

  // A forgotten password: a single-use link the admin hands over (no password travels in a message).
  register(app, issuePasswordLinkCall, { onRequest: manage }, async (request) => {
    notOwn(request, request.params.staffId);
    if (!deps.config.STAFF_PASSWORD_LOGIN)
      throw new AppError(409, 'PASSWORD_LOGIN_DISABLED', 'passwords off', 'Las contraseñas están desactivadas.');
    const link = await issuePasswordLink(
      deps,
      request.params.staffId,
      baseUrlOf(request),
      staffActor(request.staffMember!),
    );
    return { data: { url: link.url, expires_at: link.expiresAt.toISOString() } };
  });

  // A lost phone or key: every factor goes, and the next login enrols one again.
  register(app, resetStaffFactorsCall, { onRequest: manage }, async (request) => {
    notOwn(request, request.params.staffId);
    const row = await resetFactors(deps, request.params.staffId, staffActor(request.staffMember!));
    return { data: await describe(row) };
  });
}
