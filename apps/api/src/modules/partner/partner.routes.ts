import {
  partnerApplicationCall,
  partnerApplicationsCall,
  partnerContractCall,
  partnerContractEvidenceCall,
  partnerDecisionCall,
  partnerEventsCall,
  partnerExternalIdCall,
  type PartnerScope,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { applicationContract } from '../backoffice/index.js';
import { lendingDeps, recordLenderDecision } from '../lending/index.js';
import { contractEvidence } from '../signing/index.js';
import { changeExternalId, partnerApplication, partnerApplicationsPage } from './applications.service.js';
import { eventsPage } from './events.service.js';

/** The scope a route needs (partner-auth.ts checks it) and its entry in the document: a partner key as the bearer. */
const needs = (partnerScope: PartnerScope, summary: string) => ({
  config: { partnerScope },
  summary,
  tags: ['partner'],
  security: [{ partnerKey: [] }],
});
/** Who did it, in the audit trail: the key by its id. */
const keyActor = (request: { partnerKey?: { id: string } }) => `partner-key:${request.partnerKey!.id}`;

/** The routes of /partner/v1 (issue 30); partner-auth.ts has checked the key and the route's scope. */
export async function partnerRoutes(app: App): Promise<void> {
  register(
    app,
    partnerApplicationsCall,
    needs('applications:read', 'Solicitudes por su último cambio (paginadas por cursor)'),
    async (request) => partnerApplicationsPage(app, request.query),
  );

  register(
    app,
    partnerApplicationCall,
    needs('applications:read', 'Una solicitud: pasos, decisiones, avales y firmantes'),
    async (request) => ({
      data: await partnerApplication(app, request.params.applicationId, request.partnerKey!.scopes),
    }),
  );

  register(
    app,
    partnerExternalIdCall,
    needs('decisions:write', 'El identificador propio del prestamista'),
    async (request) => {
      const { applicationId } = request.params;
      // Only the id it set: a key that may record decisions reads no application with it.
      return { data: await changeExternalId(app, applicationId, request.body.external_id, keyActor(request)) };
    },
  );

  register(
    app,
    partnerDecisionCall,
    needs('decisions:write', 'La decisión del prestamista (aprobar, rechazar, desembolsar)'),
    async (request) => {
      const { decision, row } = await recordLenderDecision(
        lendingDeps(app),
        request.params.applicationId,
        request.body,
        keyActor(request),
      );
      return { data: { decision, next_step: row.nextStep, status: row.status } };
    },
  );

  register(
    app,
    partnerContractCall,
    needs('documents:read', 'El contrato en PDF (firmado si ya lo está)'),
    async (request, reply) => {
      const contract = await applicationContract(app, request.params.applicationId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="contrato-${contract.id}.pdf"`)
        .send(contract.pdf as unknown as string); // bytes as they are: no serializer runs for a Buffer
    },
  );

  register(app, partnerContractEvidenceCall, needs('documents:read', 'La evidencia de las firmas'), async (request) => {
    const contract = await applicationContract(app, request.params.applicationId);
    return { data: await contractEvidence(app, contract.id) };
  });

  // What the webhooks send, for receivers that poll: every event after the cursor, oldest first.
  register(
    app,
    partnerEventsCall,
    needs('applications:read', 'Los eventos, iguales a los webhooks, por cursor'),
    async (request) => eventsPage(app, request.query),
  );
}
