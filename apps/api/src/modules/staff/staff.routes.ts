import {
  passwordLinkResponse,
  staffCreateBody,
  staffCreatedResponse,
  staffListResponse,
  staffParams,
  staffResponse,
  staffUpdateBody,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { issuePasswordLink } from './password-links.js';
import { staffErrors } from './refusals.js';
import { staffActor, staffOnly } from './staff-auth.js';
import { createStaff, describeStaff, listStaff, resetFactors, updateStaff } from './staff.service.js';

/** Where links to this server point: its public address, or the one the request came to. */
export const baseUrlOf = (request: FastifyRequest) =>
  request.server.config.PUBLIC_BASE_URL ?? `${request.protocol}://${request.host}`;

const OWN_ACCOUNT = new AppError(409, 'OWN_ACCOUNT', 'own account', 'No puedes cambiar tu propia cuenta.');

/** Staff accounts (admins): every change needs a recent second factor. */
export async function staffAccountRoutes(app: App): Promise<void> {
  const loginKey = app.secrets.key('staff-login');
  const manage = staffOnly('manageStaff', { stepUp: true });
  const describe = (row: Parameters<typeof describeStaff>[2]) => describeStaff(app.db, loginKey, row, app.clock());
  /** An admin cannot lock themselves out (the last admin would leave nobody to manage accounts). */
  const notOwn = (request: FastifyRequest, staffId: string) => {
    if (staffId === request.staffMember!.id) throw OWN_ACCOUNT;
  };

  app.get(
    '/staff',
    { onRequest: staffOnly('manageStaff'), schema: { response: { 200: staffListResponse, ...staffErrors } } },
    async () => ({ data: await listStaff(app.db, loginKey, app.clock()) }),
  );

  app.post(
    '/staff',
    { onRequest: manage, schema: { body: staffCreateBody, response: { 201: staffCreatedResponse, ...staffErrors } } },
    async (request, reply) => {
      const by = staffActor(request.staffMember!);
      const row = await createStaff(app, request.body, by);
      const link = app.config.STAFF_PASSWORD_LOGIN
        ? await issuePasswordLink(app, row.id, baseUrlOf(request), by)
        : null;
      return reply.status(201).send({
        data: {
          staff: await describe(row),
          password_link: link && { url: link.url, expires_at: link.expiresAt.toISOString() },
        },
      });
    },
  );

  app.patch(
    '/staff/:staffId',
    {
      onRequest: manage,
      schema: { params: staffParams, body: staffUpdateBody, response: { 200: staffResponse, ...staffErrors } },
    },
    async (request) => {
      notOwn(request, request.params.staffId);
      const row = await updateStaff(app, request.params.staffId, request.body, staffActor(request.staffMember!));
      return { data: await describe(row) };
    },
  );

  // A forgotten password: a single-use link the admin hands over (no password travels in a message).
  app.post(
    '/staff/:staffId/password-link',
    { onRequest: manage, schema: { params: staffParams, response: { 200: passwordLinkResponse, ...staffErrors } } },
    async (request) => {
      notOwn(request, request.params.staffId);
      if (!app.config.STAFF_PASSWORD_LOGIN)
        throw new AppError(409, 'PASSWORD_LOGIN_DISABLED', 'passwords off', 'Las contraseñas están desactivadas.');
      const link = await issuePasswordLink(
        app,
        request.params.staffId,
        baseUrlOf(request),
        staffActor(request.staffMember!),
      );
      return { data: { url: link.url, expires_at: link.expiresAt.toISOString() } };
    },
  );

  // A lost phone or key: every factor goes, and the next login enrols one again.
  app.post(
    '/staff/:staffId/reset-factors',
    { onRequest: manage, schema: { params: staffParams, response: { 200: staffResponse, ...staffErrors } } },
    async (request) => {
      notOwn(request, request.params.staffId);
      const row = await resetFactors(app, request.params.staffId, staffActor(request.staffMember!));
      return { data: await describe(row) };
    },
  );
}
