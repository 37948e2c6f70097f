import type { FunnelMilestone } from '@provee/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { applicationMilestones } from '../../db/schema.js';

// The funnel's milestones (packages/domain/src/funnel.ts), recorded by the step engine in the move's
// own transaction: the first time wins, a later move of the same kind leaves it as it was.

const COLUMNS = {
  tax_id: applicationMilestones.taxId,
  business_address: applicationMilestones.businessAddress,
  business: applicationMilestones.business,
  nip_sent: applicationMilestones.nipSent,
  consent: applicationMilestones.consent,
  pre_approved: applicationMilestones.preApproved,
  password: applicationMilestones.password,
  contract_signed: applicationMilestones.contractSigned,
} as const satisfies Record<FunnelMilestone, unknown>;

const FIELDS = {
  tax_id: 'taxId',
  business_address: 'businessAddress',
  business: 'business',
  nip_sent: 'nipSent',
  consent: 'consent',
  pre_approved: 'preApproved',
  password: 'password',
  contract_signed: 'contractSigned',
} as const satisfies Record<FunnelMilestone, keyof typeof applicationMilestones.$inferInsert>;

export async function recordMilestone(
  tx: Executor,
  applicationId: string,
  milestone: FunnelMilestone,
  at: Date,
): Promise<void> {
  const column = COLUMNS[milestone];
  await tx
    .insert(applicationMilestones)
    .values({ applicationId, [FIELDS[milestone]]: at })
    .onConflictDoUpdate({
      target: applicationMilestones.applicationId,
      set: { [FIELDS[milestone]]: sql`coalesce(${column}, excluded.${sql.identifier(column.name)})` },
    });
}
