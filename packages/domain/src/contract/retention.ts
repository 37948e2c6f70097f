import { z } from 'zod';
import { callsSharing, refusals } from './call.js';
import { retentionScheduleRoute } from './routes/retention.js';

const retentionRuleView = z.object({
  name: z.string(),
  /** The country whose rows it applies to, or null for every country. */
  country: z.string().nullable(),
  position: z.number(),
  applies_to: z.string(),
  counted_from: z.string(),
  age_days: z.number(),
  action: z.string(),
  enabled: z.boolean(),
  legal_basis: z.string(),
});

const retentionCount = z.object({ done: z.number(), refused: z.number(), failed: z.number() });

const retentionRunView = z.object({
  id: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  /** Per rule that ran: erased or deleted, held (a legal hold), failed. */
  counts: z.record(z.string(), retentionCount),
});

/** GET /api/backoffice/retention (admins): the schedule's rules and its latest runs, read only. */
export const retentionScheduleResponse = z.object({
  data: z.object({ rules: z.array(retentionRuleView), runs: z.array(retentionRunView) }),
});
export type RetentionScheduleView = z.infer<typeof retentionScheduleResponse>['data'];

const adminCall = callsSharing({}, refusals(401, 403));
export const retentionScheduleCall = adminCall(retentionScheduleRoute, {}, { 200: retentionScheduleResponse });
