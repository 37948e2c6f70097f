import { auditTrailCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { listAuditEvents, verifyAuditChain } from './audit.service.js';

/** Operations: read an application's audit trail and check that its chain is intact. */
export async function auditRoutes(app: App): Promise<void> {
  register(
    app,
    auditTrailCall,
    { summary: 'Bitácora de auditoría de una solicitud y verificación de su cadena', security: [{ apiKey: [] }] },
    async (request) => {
      const { applicationId } = request.params;
      const [events, chain] = await Promise.all([
        listAuditEvents(app.db, applicationId),
        verifyAuditChain(app.db, applicationId),
      ]);
      return {
        data: {
          chain: chain.valid
            ? { valid: true, events: chain.events }
            : { valid: false, events: chain.events, broken_at: chain.brokenAt, reason: chain.reason },
          events: events.map((event) => ({
            id: event.id,
            actor: event.actor,
            type: event.type,
            payload: event.payload,
            created_at: event.createdAt.toISOString(),
            prev_hash: event.prevHash,
            hash: event.hash,
          })),
        },
      };
    },
  );
}
