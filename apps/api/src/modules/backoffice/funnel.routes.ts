import { funnelCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { funnel } from './funnel.store.js';
import { reportRange } from './report-range.js';

/** The registration funnel of the applicants who started in a date range (analysts and admins). */
export async function funnelRoutes(app: App): Promise<void> {
  register(app, funnelCall, { onRequest: staffOnly('readReports') }, async (request) => {
    const { from, to, utm_source: utmSource } = request.query;
    // An empty filter box means every source.
    return { data: await funnel(app.db, reportRange(from, to), utmSource || undefined) };
  });
}
