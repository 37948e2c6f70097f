import { lookupUserCall, userDetailCall } from '@provee/domain';
import { bearerRoute, register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { requirePhoneAccess, requireToken, requireUserAccess } from '../auth/index.js';
import { parsePhone } from '../../phone.js';
import { taxIdSuggestion, userAnswer, userResponse } from './users.service.js';
import { findUserByPhone, findUserDetail } from './users.store.js';

export async function userRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  register(
    app,
    lookupUserCall,
    bearerRoute(requireToken, 'Busca al usuario del teléfono verificado; 404 si es nuevo'),
    async (request) => {
      const phoneE164 = parsePhone(country, request.query.phone_number, 'querystring.phone_number');
      requirePhoneAccess(request, phoneE164);
      const user = await findUserByPhone(app.db, phoneE164);
      if (!user) throw new AppError(404, 'USER_NOT_FOUND', 'user not found', 'Aún no tienes un registro.');
      return { data: await userResponse(app.db, country, user) };
    },
  );

  register(
    app,
    userDetailCall,
    bearerRoute(requireToken, 'Detalle del usuario (solo con su propio token)'),
    async (request) => {
      const detail = await findUserDetail(app.db, request.params.id);
      requireUserAccess(request, detail?.user);
      const { user, avals, preApproval, lenderApproval } = detail!;
      return {
        data: {
          ...userAnswer(country, user, avals),
          tax_id_suggestion: await taxIdSuggestion(app, user),
          pre_approval: preApproval,
          lender_approval: lenderApproval && { ...lenderApproval, annual_rate: Number(lenderApproval.annual_rate) },
        },
      };
    },
  );
}
