import type {
  CreatePartnerKeyBody,
  CreateWebhookEndpointBody,
  ReplayWebhookSendsBody,
  UpdateWebhookEndpointBody,
} from '@provee/domain';
import {
  createPartnerKeyRoute,
  createWebhookEndpointRoute,
  listPartnerKeysRoute,
  listWebhookEndpointsRoute,
  listWebhookSendsRoute,
  replayWebhookSendsRoute,
  revokePartnerKeyRoute,
  rotateWebhookSecretRoute,
  updateWebhookEndpointRoute,
} from '@provee/domain';
import { backofficeRequest } from './api.js';

// The lender's systems as admins manage them (issue 30): webhook endpoints with their sends, and
// the partner API's keys. Secrets and keys come in the answer that makes them, and never again.

const endpoint = (endpointId: string) => ({ endpointId });

export const webhooks = {
  list: () => backofficeRequest(listWebhookEndpointsRoute).then((r) => r.data),
  create: (body: CreateWebhookEndpointBody) =>
    backofficeRequest(createWebhookEndpointRoute, { body }).then((r) => r.data),
  update: (id: string, body: UpdateWebhookEndpointBody) =>
    backofficeRequest(updateWebhookEndpointRoute, { params: endpoint(id), body }).then((r) => r.data),
  rotateSecret: (id: string, overlapHours: number) =>
    backofficeRequest(rotateWebhookSecretRoute, { params: endpoint(id), body: { overlap_hours: overlapHours } }).then(
      (r) => r.data,
    ),
  sends: (id: string) => backofficeRequest(listWebhookSendsRoute, { params: endpoint(id) }).then((r) => r.data),
  replay: (id: string, body: ReplayWebhookSendsBody) =>
    backofficeRequest(replayWebhookSendsRoute, { params: endpoint(id), body }).then((r) => r.data.replayed),
};

export const partnerKeys = {
  list: () => backofficeRequest(listPartnerKeysRoute).then((r) => r.data),
  create: (body: CreatePartnerKeyBody) => backofficeRequest(createPartnerKeyRoute, { body }).then((r) => r.data),
  revoke: (id: string) => backofficeRequest(revokePartnerKeyRoute, { params: { keyId: id } }).then((r) => r.data),
};
