import {
  addressBody,
  businessBody,
  createdUserResponse,
  personalDataAmendedResponse,
  personalDataBody,
  registerUserBody,
  savedRegistrationResponse,
  taxInfoBody,
} from '@provee/domain';
import { errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { requirePhoneAccess, requireToken } from '../auth/index.js';
import { parsePhone } from '../phone-proof/index.js';
import { engineOf, stepAnswer, type ApplicationRow } from '../application/index.js';
import { ownedUser, stepAnswerSchema, taxIdSuggestion, userParams } from '../users/index.js';
import { amendAddress, amendPersonalData, amendTaxId } from './amend.service.js';
import { registerShopkeeper, saveAddress, saveBusiness, saveTaxId } from './registration.service.js';
import { savedRegistration } from './saved.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  412: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
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

  // Going back (issue 27, docs/decisions/025): what the steps saved, and their corrections while
  // the step engine allows them (409 with where the application stands once it does not).
  app.get(
    '/v1/users/:id/:type/registration',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Lo que guardó cada paso del registro y qué se puede corregir todavía',
        security: [{ bearer: [] }],
        params: userParams,
        response: { 200: savedRegistrationResponse, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => ({ data: await savedRegistration(app, await ownedUser(request, request.params.id)) }),
  );

  app.put(
    '/v1/users/:id/:type/personal-data',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Corrige el paso 1 (datos personales) antes de los datos del negocio',
        security: [{ bearer: [] }],
        params: userParams,
        body: personalDataBody,
        response: { 200: personalDataAmendedResponse, ...errors },
      },
    },
    async (request) => {
      const user = await amendPersonalData(app, await ownedUser(request, request.params.id), request.body);
      return { data: { ...(await stepAnswer(engineOf(app), user)), tax_id_suggestion: taxIdSuggestion(app, user) } };
    },
  );

  app.put(
    '/v1/users/:id/:type/tax_info',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Corrige el paso 2 (Cédula / RNC o RFC) antes de los datos del negocio',
        security: [{ bearer: [] }],
        params: userParams,
        body: taxInfoBody,
        response: { 200: stepAnswerSchema, ...errors },
      },
    },
    async (request) =>
      answer(await amendTaxId(app, await ownedUser(request, request.params.id), request.body.tax_payer_id)),
  );

  app.put(
    '/v1/users/:id/:type/businesses/address',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Corrige el domicilio del negocio antes de los datos del negocio (412 fuera de la zona)',
        security: [{ bearer: [] }],
        params: userParams,
        body: addressBody,
        response: { 200: stepAnswerSchema, ...errors },
      },
    },
    async (request) => answer(await amendAddress(app, await ownedUser(request, request.params.id), request.body)),
  );
}
