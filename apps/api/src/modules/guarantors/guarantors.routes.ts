import {
  avalConsentBody,
  avalConsentResponse,
  avalConsentStartedResponse,
  avalInvitationResponse,
  avalReverseOtpBody,
  avalValidationResponse,
  avalNipBody,
  avalNipQuery,
  avalNipSentResponse,
  avalPhoneChangeBody,
  avalPhoneChangedResponse,
  avalRegisteredResponse,
  registerAvalBody,
} from '@provee/domain';
import { z } from 'zod';
import { clientAddress } from '../../client-address.js';
import { AppError, errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { engineOf, stepAnswer } from '../application/index.js';
import { findUserById, ownedUser, userParams } from '../users/index.js';
import type { FastifyRequest } from 'fastify';
import { requirePrincipal, requireToken } from '../auth/index.js';
import {
  avalView,
  changeAvalPhone,
  confirmAvalPin,
  invitation,
  inviteAval,
  registerAval,
  sendPinToAval,
  startRemoteConsent,
  validateRemoteConsent,
  type AvalRow,
  type Invited,
} from './guarantors.service.js';
import type { UserRow } from '../users/index.js';

const FORBIDDEN = new AppError(403, 'FORBIDDEN', 'forbidden', 'No tienes permiso para ver esta información.');

/** The shopkeeper of the route: their own token, or a guarantor's invitation token for one of theirs. */
async function shopkeeperOf(request: FastifyRequest, id: string): Promise<{ user: UserRow; invited?: Invited }> {
  const principal = requirePrincipal(request);
  if (principal.kind !== 'aval') return { user: await ownedUser(request, id) };
  const user = await findUserById(request.server.db, id);
  if (!user || principal.userId !== user.id) throw FORBIDDEN;
  return { user, invited: { avalId: principal.avalId, phoneE164: principal.phoneE164 } };
}

/** The invitation token of the call (a guarantor's link), 401/403 otherwise. */
function invitedBy(request: FastifyRequest): Invited {
  const principal = requirePrincipal(request);
  if (principal.kind !== 'aval') throw FORBIDDEN;
  return { avalId: principal.avalId, phoneE164: principal.phoneE164 };
}

/** The invitation SMS; a provider failure does not undo the naming (the PIN still works in person). */
async function invite(app: App, user: UserRow, aval: AvalRow): Promise<void> {
  try {
    await inviteAval(app, user, aval);
  } catch (error) {
    app.log.error({ err: error, avalId: aval.id }, 'guarantor invitation not sent');
  }
}

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
};

/** The guarantor calls of SPEC §7, with the shopkeeper's token (SPEC §2.5). */
export async function guarantorRoutes(app: App): Promise<void> {
  app.post(
    '/v1/users/:id/:type/avals',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Registra un aval (socio o garante) y lleva la solicitud al NIP del aval',
        security: [{ bearer: [] }],
        params: userParams,
        body: registerAvalBody,
        response: { 200: avalRegisteredResponse, ...errors },
      },
    },
    async (request) => {
      const user = await ownedUser(request, request.params.id);
      const { row, aval } = await registerAval(app, user, request.body, `user:${user.id}`);
      await invite(app, user, aval);
      return { data: { ...(await stepAnswer(engineOf(app), row)), aval: avalView(app, aval) } };
    },
  );

  app.post(
    '/v1/users/:id/:type/aval/nip',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Envía al aval su NIP de consulta (4 dígitos) por SMS',
        security: [{ bearer: [] }],
        params: userParams,
        querystring: avalNipQuery,
        response: { 200: avalNipSentResponse, ...errors },
      },
    },
    async (request) => {
      const { user, invited } = await shopkeeperOf(request, request.params.id);
      return { data: await sendPinToAval(app, user, request.query.to, invited) };
    },
  );

  app.put(
    '/v1/users/:id/:type/aval/nip',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Confirma el NIP del aval: registra su autorización y consulta el buró',
        security: [{ bearer: [] }],
        params: userParams,
        querystring: avalNipQuery,
        body: avalNipBody,
        response: { 200: avalConsentResponse, ...errors },
      },
    },
    async (request) => ({
      data: await confirmAvalPin(app, await ownedUser(request, request.params.id), request.query.to, request.body.nip, {
        ...clientAddress(request),
        userAgent: request.headers['user-agent'],
      }),
    }),
  );

  app.put(
    '/v1/users/:id/:type/aval/phone-number',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Cambia el celular del aval y le envía el NIP al nuevo',
        security: [{ bearer: [] }],
        params: userParams,
        body: avalPhoneChangeBody,
        response: { 200: avalPhoneChangedResponse, ...errors },
      },
    },
    async (request) => ({
      data: await changeAvalPhone(app, await ownedUser(request, request.params.id), request.body),
    }),
  );
}

/** The guarantor's own calls, with their invitation token (SPEC §2.5 /verify-aval-phone). */
export async function guarantorInvitationRoutes(app: App): Promise<void> {
  app.get(
    '/v1/users/aval/invitation',
    {
      preParsing: requireToken,
      schema: {
        summary: 'La invitación del aval: quién lo eligió y si ya respondió',
        security: [{ bearer: [] }],
        response: { 200: avalInvitationResponse, ...errors },
      },
    },
    async (request) => ({ data: await invitation(app, invitedBy(request)) }),
  );

  const start = async (request: FastifyRequest, body: z.infer<typeof avalConsentBody>) => ({
    data: await startRemoteConsent(app, invitedBy(request), body, request.ip),
  });
  const startSchema = {
    security: [{ bearer: [] }],
    body: avalConsentBody,
    response: { 200: avalConsentStartedResponse, ...errors },
  };
  app.post(
    '/v1/users/aval/consent',
    {
      preParsing: requireToken,
      schema: { summary: 'El aval acepta la consulta: se valida con un mensaje desde su celular', ...startSchema },
    },
    (request) => start(request, request.body),
  );
  app.post(
    '/v1/users/aval/reverse-otp',
    { preParsing: requireToken, schema: { summary: 'Nueva validación por mensaje para el aval', ...startSchema } },
    (request) => start(request, request.body),
  );

  app.put(
    '/v1/users/aval/reverse-otp',
    {
      schema: {
        summary: 'Estado de la validación del aval (pending, success, error)',
        body: avalReverseOtpBody,
        response: { 200: avalValidationResponse, ...errors },
      },
    },
    async (request) => ({
      data: {
        validation: await validateRemoteConsent(
          app,
          { key: request.body.session_id },
          {
            ...clientAddress(request),
            userAgent: request.headers['user-agent'],
          },
        ),
      },
    }),
  );
}
