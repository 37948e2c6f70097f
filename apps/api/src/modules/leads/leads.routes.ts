import { assignLeadCall, fromE164 } from '@provee/domain';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import { hasOpsKey } from '../../plugins/app/ops-auth.js';
import type { App } from '../../types.js';
import { requirePhoneAccess } from '../auth/index.js';
import { findLead, insertLead } from './leads.store.js';
import { parsePhone } from '../../phone.js';

/** SPEC §3 lead assignment: idempotent on lead_id (201 the first time, 200 with the stored lead after). */
export async function leadRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  register(
    app,
    assignLeadCall,
    {
      config: { webApiKey: true },
      summary: 'Asigna un prospecto al equipo comercial',
      security: [{ apiKey: [], bearer: [] }],
    },
    async (request, reply) => {
      const lead = request.body;
      const phoneE164 = parsePhone(country, lead.shopkeeper_phone, 'body.shopkeeper_phone');
      // The web app's key is public: it must also hold the token of the phone it reports.
      if (!hasOpsKey(request.headers, app.config.OPS_API_KEY)) requirePhoneAccess(request, phoneE164);
      const created = await insertLead(app.db, {
        leadId: lead.lead_id,
        leadType: lead.lead_type,
        shopkeeperPhoneE164: phoneE164,
        utmSource: lead.utm_source ?? null,
        utmMedium: lead.utm_medium ?? null,
        utmCampaign: lead.utm_campaign ?? null,
        clientCreatedAt: new Date(lead.created_at),
        clientUpdatedAt: new Date(lead.updated_at),
      });
      const stored = created ?? (await findLead(app.db, lead.lead_id));
      if (stored!.shopkeeperPhoneE164 !== phoneE164) {
        throw new AppError(
          409,
          'LEAD_ID_TAKEN',
          'lead_id belongs to another lead',
          'Este prospecto ya fue registrado con otros datos.',
        );
      }
      reply.status(created ? 201 : 200);
      return {
        data: {
          lead_id: stored!.leadId,
          lead_type: 'INTERNAL' as const,
          shopkeeper_phone: fromE164(country, stored!.shopkeeperPhoneE164),
          utm_source: stored!.utmSource,
          utm_medium: stored!.utmMedium,
          utm_campaign: stored!.utmCampaign,
          created_at: stored!.clientCreatedAt.toISOString(),
          updated_at: stored!.clientUpdatedAt.toISOString(),
        },
      };
    },
  );
}
