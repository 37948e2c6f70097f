import { retentionScheduleCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { retentionScheduleView } from '../privacy/index.js';
import { staffOnly } from '../staff/index.js';

/** The retention schedule for admins (back office), read only: its rules and its latest runs' counts. */
export async function retentionRoutes(app: App): Promise<void> {
  register(app, retentionScheduleCall, { onRequest: staffOnly('readRetention') }, async () => ({
    data: await retentionScheduleView(app.db),
  }));
}
