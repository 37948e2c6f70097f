import type { FunnelMilestone } from '@provee/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { applicationMilestones, users } from '../../db/schema.js';

// The funnel's milestones (packages/domain/src/funnel.ts), recorded by the step engine in the move's
// own transaction: the first time wins, a later move of the same kind leaves it as it was.

/** Each milestone's column (the funnel reads them too). */
export const MILESTONE_COLUMNS = {
  tax_id: applicationMilestones.taxId,
  business_address: applicationMilestones.businessAddress,
  business: applicationMilestones.business,
  nip_sent: applicationMilestones.nipSent,
  consent: applicationMilestones.consent,
  pre_approved: applicationMilestones.preApproved,
  password: applicationMilestones.password,
  contract_signed: applicationMilestones.contractSigned,
} as const satisfies Record<FunnelMilestone, unknown>;

/**
 * Records `milestone` at `at` unless the application reached it before. The application's first
 * milestone makes its row, with its start and source copied from it (the funnel reads them there).
 */
export async function recordMilestone(
  tx: Executor,
  applicationId: string,
  milestone: FunnelMilestone,
  at: Date,
): Promise<void> {
  const name = (column: { name: string }) => sql.identifier(column.name);
  const reached = name(MILESTONE_COLUMNS[milestone]);
  const { applicationId: id, startedAt, utmSource } = applicationMilestones;
  await tx.execute(sql`
    insert into ${applicationMilestones} (${name(id)}, ${name(startedAt)}, ${name(utmSource)}, ${reached})
    select ${users.id}, ${users.createdAt}, ${users.utmSource}, ${at.toISOString()}::timestamptz
    from ${users} where ${users.id} = ${applicationId}
    on conflict (${name(id)}) do update set ${reached} = coalesce(${applicationMilestones}.${reached}, excluded.${reached})`);
}
