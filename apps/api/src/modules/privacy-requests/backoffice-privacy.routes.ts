import {
  erasePrivacyRequestCall,
  privacyQueueCall,
  privacyRequestDetailCall,
  rectifyPrivacyRequestCall,
  refusePrivacyRequestCall,
  startPrivacyRequestCall,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffActor, staffOnly } from '../staff/index.js';
import {
  erasePrivacyRequest,
  privacyRequestDetail,
  rectifyPrivacyRequest,
  refusePrivacyRequest,
  startPrivacyRequest,
} from './requests-staff.service.js';
import { requestView } from './requests.service.js';
import { listQueue } from './requests.store.js';

/**
 * "Solicitudes de privacidad" under /api/backoffice: analysts and admins (permission `privacy`).
 * Reading a person's record and every answer ask for a recent second factor, as the identity
 * images and the contract do.
 */
export async function privacyBackofficeRoutes(app: App): Promise<void> {
  const deps = { db: app.db, clock: app.clock, config: app.config, cipher: app.cipher };
  const sensitive = { onRequest: staffOnly('privacy', { stepUp: true }) };

  register(app, privacyQueueCall, { onRequest: staffOnly('privacy') }, async (request) => {
    const now = app.clock();
    const rows = await listQueue(app.db, request.query.state === 'open');
    const items = rows.map((row) => requestView(row, now, app.config.COUNTRY));
    return { data: { items } };
  });

  register(app, privacyRequestDetailCall, sensitive, async (request) => ({
    data: await privacyRequestDetail(deps, request.params.requestId, staffActor(request.staffMember!)),
  }));

  register(app, startPrivacyRequestCall, sensitive, async (request) => ({
    data: await startPrivacyRequest(deps, request.params.requestId, staffActor(request.staffMember!)),
  }));

  register(app, rectifyPrivacyRequestCall, sensitive, async (request) => ({
    data: await rectifyPrivacyRequest(
      deps,
      request.params.requestId,
      staffActor(request.staffMember!),
      request.body.field,
      request.body.value,
    ),
  }));

  register(app, erasePrivacyRequestCall, sensitive, async (request) => ({
    data: await erasePrivacyRequest(deps, request.params.requestId, staffActor(request.staffMember!)),
  }));

  register(app, refusePrivacyRequestCall, sensitive, async (request) => ({
    data: await refusePrivacyRequest(
      deps,
      request.params.requestId,
      staffActor(request.staffMember!),
      request.body.legal_reason,
    ),
  }));
}
