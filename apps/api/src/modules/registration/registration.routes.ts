import {
  amendAddressCall,
  amendPersonalDataCall,
  amendTaxIdCall,
  registerUserCall,
  saveAddressCall,
  saveBusinessCall,
  savedRegistrationCall,
  saveTaxIdCall,
} from '@provee/domain';
import { bearerRoute, register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { requirePhoneAccess, requireToken } from '../auth/index.js';
import { parsePhone } from '../../phone.js';
import { engineOf, stepAnswer, type ApplicationRow } from '../application/index.js';
import { ownedUser, taxIdSuggestion } from '../users/index.js';
import { amendAddress, amendPersonalData, amendTaxId } from './amend.service.js';
import { registerShopkeeper, saveAddress, saveBusiness } from './registration.service.js';
import { savedRegistration } from './saved.service.js';
import { saveTaxId } from './tax-id.js';

export async function registrationRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  // The saved step's answer says where the application stands: the screen navigates from it.
  const answer = async (row: ApplicationRow) => ({ data: await stepAnswer(engineOf(app), row) });

  register(
    app,
    registerUserCall,
    bearerRoute(requireToken, 'Registra al comerciante (paso 1: datos personales)'),
    async (request, reply) => {
      const phoneE164 = parsePhone(country, request.body.phone_number);
      requirePhoneAccess(request, phoneE164);
      const user = await registerShopkeeper(app, phoneE164, request.body);
      const { token, expiresAt } = app.tokens.issue({ kind: 'user', userId: user.id, phoneE164 });
      return reply.status(201).send({
        data: {
          ...(await stepAnswer(engineOf(app), user)),
          // The tax-id screen comes next: it needs no second request for the suggestion.
          tax_id_suggestion: await taxIdSuggestion(app, user),
          user_type: 'SK' as const,
          authentication: { access_type: 'Bearer' as const, access_token: token, expires_at: expiresAt.toISOString() },
        },
      });
    },
  );

  register(app, saveTaxIdCall, bearerRoute(requireToken, 'Paso 2: Cédula / RNC o RFC'), async (request) => {
    return answer(await saveTaxId(app, await ownedUser(request, request.params.id), request.body.tax_payer_id));
  });

  register(
    app,
    saveAddressCall,
    bearerRoute(requireToken, 'Paso 4: domicilio del negocio (412 fuera de la zona de servicio)'),
    async (request) => {
      return answer(await saveAddress(app, await ownedUser(request, request.params.id), request.body));
    },
  );

  register(app, saveBusinessCall, bearerRoute(requireToken, 'Paso 5: datos del negocio'), async (request) => {
    return answer(await saveBusiness(app, await ownedUser(request, request.params.id), request.body));
  });

  // Going back (issue 27, docs/decisions/025): what the steps saved, and their corrections while
  // the step engine allows them (409 with where the application stands once it does not).
  register(
    app,
    savedRegistrationCall,
    bearerRoute(requireToken, 'Lo que guardó cada paso del registro y qué se puede corregir todavía'),
    async (request) => ({ data: await savedRegistration(app, await ownedUser(request, request.params.id)) }),
  );

  register(
    app,
    amendPersonalDataCall,
    bearerRoute(requireToken, 'Corrige el paso 1 (datos personales) antes de los datos del negocio'),
    async (request) => {
      const user = await amendPersonalData(app, await ownedUser(request, request.params.id), request.body);
      return {
        data: { ...(await stepAnswer(engineOf(app), user)), tax_id_suggestion: await taxIdSuggestion(app, user) },
      };
    },
  );

  register(
    app,
    amendTaxIdCall,
    bearerRoute(requireToken, 'Corrige el paso 2 (Cédula / RNC o RFC) antes de los datos del negocio'),
    async (request) =>
      answer(await amendTaxId(app, await ownedUser(request, request.params.id), request.body.tax_payer_id)),
  );

  register(
    app,
    amendAddressCall,
    bearerRoute(requireToken, 'Corrige el domicilio del negocio antes de los datos del negocio (412 fuera de la zona)'),
    async (request) => answer(await amendAddress(app, await ownedUser(request, request.params.id), request.body)),
  );
}
