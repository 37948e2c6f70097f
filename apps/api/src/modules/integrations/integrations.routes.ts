import {
  APPLICATION_EVENT_TYPES,
  createPartnerKeyCall,
  createWebhookEndpointCall,
  listPartnerKeysCall,
  listWebhookEndpointsCall,
  listWebhookSendsCall,
  replayWebhookSendsCall,
  revokePartnerKeyCall,
  rotateWebhookSecretCall,
  updateWebhookEndpointCall,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import {
  changeEndpoint,
  createEndpoint,
  endpointSends,
  listEndpointViews,
  replay,
  rotateSecret,
} from './endpoints.service.js';
import { createPartnerKey, listPartnerKeyViews, revokePartnerKey } from './partner-keys.service.js';

/**
 * The lender's systems as admins manage them (back office): webhook endpoints, their sends and
 * replays, and the partner API's keys. A secret or key is answered once, when it is made, and asks
 * for a recent second factor like every other credential an admin hands out.
 */
export async function integrationRoutes(app: App): Promise<void> {
  const read = { onRequest: staffOnly('manageIntegrations') };
  const write = { onRequest: staffOnly('manageIntegrations', { stepUp: true }) };

  register(app, listWebhookEndpointsCall, read, async () => ({
    data: { endpoints: await listEndpointViews(app), event_types: [...APPLICATION_EVENT_TYPES] },
  }));
  register(app, createWebhookEndpointCall, write, async (request) => ({
    data: await createEndpoint(app, request.staffMember!, request.body),
  }));
  register(app, updateWebhookEndpointCall, write, async (request) => ({
    data: await changeEndpoint(app, request.staffMember!, request.params.endpointId, request.body),
  }));
  register(app, rotateWebhookSecretCall, write, async (request) => ({
    data: await rotateSecret(app, request.staffMember!, request.params.endpointId, request.body.overlap_hours),
  }));
  register(app, listWebhookSendsCall, read, async (request) => ({
    data: await endpointSends(app, request.params.endpointId),
  }));
  register(app, replayWebhookSendsCall, write, async (request) => ({
    data: { replayed: await replay(app, request.staffMember!, request.params.endpointId, request.body) },
  }));

  register(app, listPartnerKeysCall, read, async () => ({ data: await listPartnerKeyViews(app) }));
  register(app, createPartnerKeyCall, write, async (request) => ({
    data: await createPartnerKey(app, request.staffMember!, request.body),
  }));
  register(app, revokePartnerKeyCall, write, async (request) => ({
    data: await revokePartnerKey(app, request.staffMember!, request.params.keyId),
  }));
}
