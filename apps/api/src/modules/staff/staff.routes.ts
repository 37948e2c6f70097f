import {
  staffCreateBody,
  staffListResponse,
  staffLoginBody,
  staffParams,
  staffResponse,
  staffSessionResponse,
  staffUpdateBody,
  type StaffView,
} from '@provee/domain';
import { z } from 'zod';
import { AppError, errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { requireStaff, staffActor, staffOnly } from './staff-auth.js';
import { authenticate, createStaff, listStaff, updateStaff, type StaffRow } from './staff.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  423: errorResponseSchema,
};

export function staffView(row: StaffRow): StaffView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as StaffView['role'],
    active: row.active,
    locked_until: row.lockedUntil?.toISOString() ?? null,
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Login, logout, who am I; staff accounts (admins). */
export async function staffRoutes(app: App): Promise<void> {
  app.post(
    '/session',
    { schema: { body: staffLoginBody, response: { 200: staffSessionResponse, ...errors } } },
    async (request) => {
      const member = await authenticate(app, request.body.email, request.body.password, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      // A new session id at login: an id planted before the login opens nothing.
      await request.session.regenerate();
      request.session.cookie.secure = request.protocol === 'https';
      request.session.staffId = member.id;
      request.session.ip = request.ip;
      request.session.userAgent = request.headers['user-agent']?.slice(0, 300);
      return { data: { staff: staffView(member) } };
    },
  );

  app.get('/session', { schema: { response: { 200: staffSessionResponse, ...errors } } }, async (request) => ({
    data: { staff: staffView(await requireStaff(request)) },
  }));

  app.delete('/session', { schema: { response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    if (request.session.staffId) await request.session.destroy();
    return reply.status(204).send(null);
  });

  app.get(
    '/staff',
    { onRequest: staffOnly('manageStaff'), schema: { response: { 200: staffListResponse, ...errors } } },
    async () => ({ data: (await listStaff(app.db)).map(staffView) }),
  );

  app.post(
    '/staff',
    {
      onRequest: staffOnly('manageStaff'),
      schema: { body: staffCreateBody, response: { 201: staffResponse, ...errors } },
    },
    async (request, reply) => {
      const row = await createStaff(app, request.body, staffActor(request.staffMember!));
      return reply.status(201).send({ data: staffView(row) });
    },
  );

  app.patch(
    '/staff/:staffId',
    {
      onRequest: staffOnly('manageStaff'),
      schema: { params: staffParams, body: staffUpdateBody, response: { 200: staffResponse, ...errors } },
    },
    async (request) => {
      // An admin cannot lock themselves out (the last admin would leave nobody to manage accounts).
      if (request.params.staffId === request.staffMember!.id)
        throw new AppError(409, 'OWN_ACCOUNT', 'own account', 'No puedes cambiar tu propia cuenta.');
      const row = await updateStaff(app, request.params.staffId, request.body, staffActor(request.staffMember!));
      return { data: staffView(row) };
    },
  );
}
