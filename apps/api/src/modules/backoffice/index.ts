import type { App } from '../../types.js';
import { registerStaffSessions, staffRoutes } from '../staff/index.js';
import { advisorQueueRoutes } from './advisor-queue.routes.js';
import { applicationRoutes } from './applications.routes.js';
import { exportRoutes } from './exports.routes.js';
import { funnelRoutes } from './funnel.routes.js';
import { jobQueueRoutes } from './jobs.routes.js';
import { retentionRoutes } from './retention.routes.js';
import { integrationRoutes } from '../integrations/index.js';
import { privacyBackofficeRoutes } from '../privacy-requests/index.js';
import { policyRoutes } from '../policy-lab/index.js';
import { refuseCrossSiteWrites } from './same-origin.js';

/**
 * The back office's API under /api/backoffice: staff sessions (cookie) only. A shopkeeper's bearer
 * token means nothing here, and the staff cookie is never sent to the shopkeeper's API. Every write
 * of the scope, present and future, must come from the back office's own pages (same-origin.ts).
 */
export async function backofficeApi(scope: App): Promise<void> {
  // First: a write from another site is refused before its session is even read.
  refuseCrossSiteWrites(scope);
  await registerStaffSessions(scope);
  await scope.register(staffRoutes);
  await scope.register(applicationRoutes);
  await scope.register(advisorQueueRoutes);
  await scope.register(funnelRoutes);
  await scope.register(exportRoutes);
  await scope.register(jobQueueRoutes);
  await scope.register(integrationRoutes);
  await scope.register(privacyBackofficeRoutes);
  await scope.register(retentionRoutes);
  await scope.register(policyRoutes);
}

// The read side other modules reuse (the partner API reads one application as the back office does).
export { applicationRecords } from './applications.store.js';
export { applicationContract, MASKED_DATE, MASKED_TAX_ID } from './applications.service.js';
export { applicantIdentifiers } from './application-detail.js';
