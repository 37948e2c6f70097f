import type { FunnelMilestone } from '@provee/domain';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { applicationMilestones } from '../../db/schema.js';

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

/** The property of the table's insert that writes a column. */
const fieldOf = (column: (typeof MILESTONE_COLUMNS)[FunnelMilestone]) =>
  Object.entries(getTableColumns(applicationMilestones)).find(([, candidate]) => candidate === column)![0];

export async function recordMilestone(
  tx: Executor,
  applicationId: string,
  milestone: FunnelMilestone,
  at: Date,
): Promise<void> {
  const column = MILESTONE_COLUMNS[milestone];
  const field = fieldOf(column);
  await tx
    .insert(applicationMilestones)
    .values({ applicationId, [field]: at })
    .onConflictDoUpdate({
      target: applicationMilestones.applicationId,
      set: { [field]: sql`coalesce(${column}, excluded.${sql.identifier(column.name)})` },
    });
}
