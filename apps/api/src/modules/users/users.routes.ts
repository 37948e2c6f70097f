import { lookupUserQuery, lookupUserResponse, userDetailResponse, userParams } from '@provee/domain';
import { AppError, errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { requirePhoneAccess, requireToken, requireUserAccess } from '../auth/index.js';
import { parsePhone } from '../phone-proof/index.js';
import { findUserByPhone, findUserDetail, taxIdSuggestion, userAnswer, userResponse } from './users.service.js';

export async function userRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  app.get(
    '/v1/users',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Busca al usuario del teléfono verificado; 404 si es nuevo',
        security: [{ bearer: [] }],
        querystring: lookupUserQuery,
        response: {
          200: lookupUserResponse,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
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
      preParsing: requireToken,
      schema: {
        summary: 'Detalle del usuario (solo con su propio token)',
        security: [{ bearer: [] }],
        params: userParams,
        response: {
          200: userDetailResponse,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const detail = await findUserDetail(app.db, request.params.id);
      requireUserAccess(request, detail?.user);
      const { user, avals, preApproval } = detail!;
      return {
        data: {
          ...userAnswer(country, user, avals),
          tax_id_suggestion: taxIdSuggestion(app, user),
          pre_approval: preApproval,
        },
      };
    },
  );
}
