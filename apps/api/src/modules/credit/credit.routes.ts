import {
  confirmNipCall,
  consentsCall,
  consentTextCall,
  recordAdvisorEventCall,
  savePasswordCall,
  sendNipCall,
} from '@provee/domain';
import { requestEvidence } from '../../client-address.js';
import { bearerRoute, register } from '../../contract/register.js';
import { notEligible } from '../../errors.js';
import type { App } from '../../types.js';
import { engineOf, stepAnswer } from '../application/index.js';
import { requireToken } from '../auth/index.js';
import { ownedUser } from '../users/index.js';
import { recordAdvisorContact } from './advisor-contact.js';
import { confirmConsentNip, consentsOf, currentConsentText, sendConsentNip } from './consent.js';
import { latestApprovedDecision } from './decision.js';
import { savePassword } from './password-step.js';

export async function creditRoutes(app: App): Promise<void> {
  register(
    app,
    consentTextCall,
    { summary: 'Texto vigente de la autorización de consulta al buró (del comercio o de un aval)' },
    async (request) => ({ data: currentConsentText(app, request.query.person_type) }),
  );

  register(
    app,
    sendNipCall,
    bearerRoute(requireToken, 'Envía el NIP de consulta (4 dígitos) por SMS'),
    async (request) => {
      const sent = await sendConsentNip(app, await ownedUser(request, request.params.id));
      return {
        data: {
          expires_at: sent.expiresAt.toISOString(),
          resend_after_seconds: sent.resendAfterSeconds,
          ...(sent.defaultNip ? { default_nip: sent.defaultNip } : {}),
        },
      };
    },
  );

  register(
    app,
    confirmNipCall,
    bearerRoute(requireToken, 'Confirma el NIP: registra la autorización y consulta el buró (422 si no es elegible)'),
    async (request) => {
      const user = await confirmConsentNip(app, await ownedUser(request, request.params.id), request.body.nip, {
        ...requestEvidence(request),
        shownSha256: request.body.consent_sha256,
      });
      if (user.status === 'REJECTED') {
        throw notEligible('NOT_ELIGIBLE');
      }
      // An approval's amount travels with the answer: the pre-approval screen needs no request.
      const approved = user.nextStep === 'PASSWORD' && user.status === 'IN_PROGRESS';
      return {
        data: {
          ...(await stepAnswer(engineOf(app), user)),
          pre_approval: approved ? await latestApprovedDecision(app, user.id) : null,
        },
      };
    },
  );

  register(
    app,
    consentsCall,
    bearerRoute(requireToken, 'Autorizaciones de consulta al buró del usuario'),
    async (request) => ({ data: await consentsOf(app, (await ownedUser(request, request.params.id)).id) }),
  );

  register(
    app,
    savePasswordCall,
    bearerRoute(requireToken, 'Crea la contraseña de 6 dígitos (después de la pre-aprobación)'),
    async (request) => {
      const row = await savePassword(app, await ownedUser(request, request.params.id), request.body);
      return { data: await stepAnswer(engineOf(app), row) };
    },
  );

  register(
    app,
    recordAdvisorEventCall,
    bearerRoute(requireToken, 'Cómo eligió continuar con un asesor'),
    async (request, reply) => {
      const user = await ownedUser(request, request.params.id);
      const now = await recordAdvisorContact(app, user, request.body.contact_type);
      return reply
        .status(201)
        .send({ data: { contact_type: request.body.contact_type, created_at: now.toISOString() } });
    },
  );
}
