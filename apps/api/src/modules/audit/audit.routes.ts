import { z } from 'zod';
import type { App } from '../../types.js';
import { listAuditEvents, verifyAuditChain } from './audit.service.js';

const eventSchema = z.object({
  id: z.number(),
  actor: z.string(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  prev_hash: z.string().nullable(),
  hash: z.string(),
});

/** Operations: read an application's audit trail and check that its chain is intact. */
export async function auditRoutes(app: App): Promise<void> {
  app.get(
    '/v1/audit/:applicationId',
    {
      schema: {
        summary: 'Bitácora de auditoría de una solicitud y verificación de su cadena',
        security: [{ apiKey: [] }],
        params: z.object({ applicationId: z.string().min(1).max(100) }),
        response: {
          200: z.object({
            data: z.object({
              chain: z.object({
                valid: z.boolean(),
                events: z.number(),
                broken_at: z.number().optional(),
                reason: z.string().optional(),
              }),
              events: z.array(eventSchema),
            }),
          }),
        },
      },
    },
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
