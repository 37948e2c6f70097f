import {
  avalConsentBody,
  avalInvitationCall,
  changeAvalPhoneCall,
  confirmAvalNipCall,
  pollAvalConsentCall,
  registerAvalCall,
  restartAvalConsentCall,
  sendAvalNipCall,
  startAvalConsentCall,
} from '@provee/domain';
import type { z } from 'zod';
import { requestEvidence } from '../../client-address.js';
import { bearerRoute, register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { engineOf, stepAnswer } from '../application/index.js';
import { findUserById, ownedUser } from '../users/index.js';
import type { FastifyRequest } from 'fastify';
import { requirePrincipal, requireToken } from '../auth/index.js';
import { avalView } from './guarantor.js';
import { invitation, type Invited } from './invitation.js';
import { deliverMessage } from '../messaging/index.js';
import { registerAval } from './naming.js';
import { changeAvalPhone } from './phone-change.js';
import { confirmAvalPin, sendPinToAval } from './pin-consent.js';
import { startRemoteConsent, validateRemoteConsent } from './remote-consent.js';
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

/** The guarantor calls of SPEC §7, with the shopkeeper's token (SPEC §2.5). */
export async function guarantorRoutes(app: App): Promise<void> {
  register(
    app,
    registerAvalCall,
    bearerRoute(requireToken, 'Registra un aval (socio o garante) y lleva la solicitud al NIP del aval'),
    async (request) => {
      const user = await ownedUser(request, request.params.id);
      const { row, aval, invitation } = await registerAval(app, user, request.body, `user:${user.id}`);
      // The invitation is a job of the naming: a provider that fails has it sent again, and the
      // PIN still works in person meanwhile.
      await deliverMessage(app, invitation);
      return { data: { ...(await stepAnswer(engineOf(app), row)), aval: avalView(app, aval) } };
    },
  );

  register(
    app,
    sendAvalNipCall,
    bearerRoute(requireToken, 'Envía al aval su NIP de consulta (4 dígitos) por SMS'),
    async (request) => {
      const { user, invited } = await shopkeeperOf(request, request.params.id);
      return { data: await sendPinToAval(app, user, request.query.to, invited) };
    },
  );

  register(
    app,
    confirmAvalNipCall,
    bearerRoute(requireToken, 'Confirma el NIP del aval: registra su autorización y consulta el buró'),
    async (request) => ({
      data: await confirmAvalPin(
        app,
        await ownedUser(request, request.params.id),
        request.query.to,
        request.body.nip,
        requestEvidence(request),
      ),
    }),
  );

  register(
    app,
    changeAvalPhoneCall,
    bearerRoute(requireToken, 'Cambia el celular del aval y le envía el NIP al nuevo'),
    async (request) => ({
      data: await changeAvalPhone(app, await ownedUser(request, request.params.id), request.body),
    }),
  );
}

/** The guarantor's own calls, with their invitation token (SPEC §2.5 /verify-aval-phone). */
export async function guarantorInvitationRoutes(app: App): Promise<void> {
  register(
    app,
    avalInvitationCall,
    bearerRoute(requireToken, 'La invitación del aval: quién lo eligió y si ya respondió'),
    async (request) => ({ data: await invitation(app, invitedBy(request)) }),
  );

  const start = async (request: FastifyRequest, body: z.infer<typeof avalConsentBody>) => ({
    data: await startRemoteConsent(app, invitedBy(request), body, request.ip),
  });
  register(
    app,
    startAvalConsentCall,
    bearerRoute(requireToken, 'El aval acepta la consulta: se valida con un mensaje desde su celular'),
    (request) => start(request, request.body),
  );
  register(
    app,
    restartAvalConsentCall,
    bearerRoute(requireToken, 'Nueva validación por mensaje para el aval'),
    (request) => start(request, request.body),
  );

  register(
    app,
    pollAvalConsentCall,
    { summary: 'Estado de la validación del aval (pending, success, error)' },
    async (request) => ({
      data: {
        validation: await validateRemoteConsent(app, { key: request.body.session_id }, requestEvidence(request)),
      },
    }),
  );
}
