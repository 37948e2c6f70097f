import { addressBody, businessBody, createdUserResponse, registerUserBody, taxInfoBody } from '@provee/domain';
import { errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { requirePhoneAccess, requireToken } from '../auth/index.js';
import { parsePhone } from '../phone-proof/index.js';
import { engineOf, stepAnswer, type ApplicationRow } from '../application/index.js';
import { ownedUser, stepAnswerSchema, taxIdSuggestion, userParams } from '../users/index.js';
import { registerShopkeeper, saveAddress, saveBusiness, saveTaxId } from './registration.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  412: errorResponseSchema,
  422: errorResponseSchema,
};

export async function registrationRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  // The saved step's answer says where the application stands: the screen navigates from it.
  const answer = async (row: ApplicationRow) => ({ data: await stepAnswer(engineOf(app), row) });

  app.post(
    '/v2/users',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Registra al comerciante (paso 1: datos personales)',
        security: [{ bearer: [] }],
        body: registerUserBody,
        response: {
          201: createdUserResponse,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const phoneE164 = parsePhone(country, request.body.phone_number);
      requirePhoneAccess(request, phoneE164);
      const user = await registerShopkeeper(app, phoneE164, request.body);
      const { token, expiresAt } = app.tokens.issue({ kind: 'user', userId: user.id, phoneE164 });
      return reply.status(201).send({
        data: {
          ...(await stepAnswer(engineOf(app), user)),
          // The tax-id screen comes next: it needs no second request for the suggestion.
          tax_id_suggestion: taxIdSuggestion(app, user),
          user_type: 'SK' as const,
          authentication: { access_type: 'Bearer' as const, access_token: token, expires_at: expiresAt.toISOString() },
        },
      });
    },
  );

  app.post(
    '/v1/users/:id/:type/tax_info',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Paso 2: Cédula / RNC o RFC',
        security: [{ bearer: [] }],
        params: userParams,
        body: taxInfoBody,
        response: { 200: stepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      return answer(await saveTaxId(app, await ownedUser(request, request.params.id), request.body.tax_payer_id));
    },
  );

  app.post(
    '/v1/users/:id/:type/businesses/address',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Paso 4: domicilio del negocio (412 fuera de la zona de servicio)',
        security: [{ bearer: [] }],
        params: userParams,
        body: addressBody,
        response: { 200: stepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      return answer(await saveAddress(app, await ownedUser(request, request.params.id), request.body));
    },
  );

  app.post(
    '/v1/users/:id/:type/businesses',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Paso 5: datos del negocio',
        security: [{ bearer: [] }],
        params: userParams,
        body: businessBody,
        response: { 200: stepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      return answer(await saveBusiness(app, await ownedUser(request, request.params.id), request.body));
    },
  );
}
