
import { z } from 'zod';
import { errorResponseSchema } from '../../errors.js';
import { int32 } from '../../input-guard.js';
import type { App } from '../../types.js';
import { requirePhoneAccess } from '../auth/index.js';
import { parsePhone, phoneNumberSchema } from '../phone-proof/index.js';
import { engineOf, stepAnswer, type ApplicationRow } from '../application/index.js';
import { ownedUser, stepAnswerSchema, userParams } from '../users/index.js';
import { registerShopkeeper, saveAddress, saveBusiness, saveTaxId } from './registration.service.js';

const text = (max: number) => z.string().max(max, `* Máximo ${max} caracteres.`);
const optionalText = (max: number) => z.string().max(max).nullish().transform((value) => value ?? null);
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 409: errorResponseSchema, 412: errorResponseSchema, 422: errorResponseSchema };

export async function registrationRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  // The saved step's answer says where the application stands: the screen navigates from it.
  const answer = async (row: ApplicationRow) => ({ data: await stepAnswer(engineOf(app), row) });

  app.post(
    '/v2/users',
    {
      schema: {
        summary: 'Registra al comerciante (paso 1: datos personales)',
        security: [{ bearer: [] }],
        body: z.object({
          account_type_id: z.literal('SK'),
          name: z.string().max(60),
          lastname: z.string().max(60),
          maternal_lastname: z.string().max(60).nullish().transform((value) => value ?? ''),
          dob: z.string().max(10),
          length_of_residency_in_years: int32(),
          marital_status: z.string().max(20),
          phone_number: phoneNumberSchema,
          utm_source: optionalText(200),
          utm_name: optionalText(200),
          utm_medium: optionalText(200),
          sales_identifier: z.string().max(100).nullish().transform((value) => value ?? ''),
          anonymous_id: z.string().max(64).nullish().transform((value) => value ?? null),
          kiban_flow_version_id: int32().nullish().transform((value) => value ?? null),
        }),
        response: {
          201: z.object({
            data: z.object({
              user_id: z.string(),
              user_type: z.literal('SK'),
              next_step: z.string(),
              status: z.string(),
              path: z.string(),
              authentication: z.object({ access_type: z.literal('Bearer'), access_token: z.string(), expires_at: z.string() }),
            }),
          }),
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
          user_type: 'SK' as const,
          authentication: { access_type: 'Bearer' as const, access_token: token, expires_at: expiresAt.toISOString() },
        },
      });
    },
  );

  app.post(
    '/v1/users/:id/:type/tax_info',
    {
      schema: {
        summary: 'Paso 2: Cédula / RNC o RFC',
        security: [{ bearer: [] }],
        params: userParams,
        body: z.object({ tax_payer_id: text(20) }),
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
      schema: {
        summary: 'Paso 4: domicilio del negocio (412 fuera de la zona de servicio)',
        security: [{ bearer: [] }],
        params: userParams,
        body: z.object({
          zip_code: text(5),
          state: text(100),
          city: text(100),
          neighborhood: text(100),
          street_name: text(120),
          street_number: text(20),
          apartment_number: z.string().max(20).nullish().transform((value) => value ?? ''),
          /** 'Mi sector no aparece': `neighborhood` was typed, not chosen from the catalogue. */
          neighborhood_typed: z.boolean().optional(),
        }),
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
      schema: {
        summary: 'Paso 5: datos del negocio',
        security: [{ bearer: [] }],
        params: userParams,
        body: z.object({
          name: text(100),
          business_type: text(60),
          business_type_other: z.string().max(80).nullish().transform((value) => value ?? ''),
          sales_average_range_id: int32(),
          business_age: int32(),
        }),
        response: { 200: stepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      return answer(await saveBusiness(app, await ownedUser(request, request.params.id), request.body));
    },
  );
}

