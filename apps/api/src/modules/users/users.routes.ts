import { z } from 'zod';
import { AppError, errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { requirePhoneAccess, requireUserAccess } from '../auth/index.js';
import { latestApprovedDecision } from '../credit/index.js';
import { parsePhone, phoneNumberSchema } from '../phone-proof/index.js';
import { findUserById, findUserByPhone, taxIdSuggestion, userResponse } from './users.service.js';

const userSchema = z.object({
  user_id: z.string(),
  id: z.string(),
  user_type: z.string(),
  next_step: z.string(),
  status: z.string(),
  request: z.object({ next_step: z.string(), status: z.string(), welcome_screen_number: z.number() }),
  avals: z.array(z.object({ aval_type: z.enum(['PARTNER', 'COLLATERAL']), phone: z.string().nullable() })),
  phone_number: z.string(),
});

export async function userRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  app.get(
    '/v1/users',
    {
      schema: {
        summary: 'Busca al usuario del teléfono verificado; 404 si es nuevo',
        security: [{ bearer: [] }],
        querystring: z.object({ phone_number: phoneNumberSchema, anonymous_id: z.string().max(64).optional() }),
        response: { 200: z.object({ data: userSchema }), 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const phoneE164 = parsePhone(country, request.query.phone_number, 'querystring.phone_number');
      requirePhoneAccess(request, phoneE164);
      const user = await findUserByPhone(app.db, phoneE164);
      if (!user) throw new AppError(404, 'USER_NOT_FOUND', 'user not found', 'Aún no tienes un registro.');
      return { data: await userResponse(app.db, country, user) };
    },
  );

  app.get(
    '/v1/users/:id/:type',
    {
      schema: {
        summary: 'Detalle del usuario (solo con su propio token)',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid('Usuario inválido.'), type: z.enum(['SK']) }),
        response: {
          200: z.object({
            data: userSchema.extend({
              tax_id_suggestion: z.string().nullable(),
              pre_approval: z.object({ amount: z.number(), currency: z.string() }).nullable(),
            }),
          }),
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const user = await findUserById(app.db, request.params.id);
      requireUserAccess(request, user);
      return {
        data: {
          ...(await userResponse(app.db, country, user!)),
          tax_id_suggestion: taxIdSuggestion(app, user!),
          pre_approval: await latestApprovedDecision(app, user!.id),
        },
      };
    },
  );
}
