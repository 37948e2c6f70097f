import { AMENDMENTS, MAX_AMENDMENTS, type AmendmentName } from '@provee/domain';
import { and, count, eq, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { auditEvents, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import {
  conflict,
  StepConflict,
  uniqueViolation,
  type ApplicationRow,
  type EngineDeps,
  type StepAnswer,
} from './application.service.js';
import { ApplicationErasedError, notErased } from './erased.js';

const TOO_MANY = new AppError(
  429,
  'TOO_MANY_CORRECTIONS',
  'too many corrections',
  'Ya corregiste tus datos muchas veces. Si algo sigue mal, escríbenos por el chat de ayuda.',
);

const NOT_EDITABLE = 'Estos datos ya no se pueden cambiar porque tu solicitud avanzó. Te llevamos a donde te quedaste.';

type Columns = Pick<
  Partial<typeof users.$inferInsert>,
  | 'name'
  | 'lastname'
  | 'maternalLastname'
  | 'dobEncrypted'
  | 'lengthOfResidencyInYears'
  | 'maritalStatus'
  | 'taxIdEncrypted'
  | 'taxIdHash'
>;

export interface AmendOptions {
  userId: string;
  amendment: AmendmentName;
  actor: string;
  /** Columns of the application row the correction changes. */
  set?: Columns;
  /** The step's own rows, in the same transaction. */
  write?: (tx: Tx) => Promise<void>;
  /** What the audit event adds ('step.amended' names the step and where the application stands). */
  payload?: Record<string, unknown>;
  /**
   * A rule across columns, on the row as it is after the update (a correction of another step that
   * committed meanwhile included): throwing undoes the correction.
   */
  check?: (row: ApplicationRow) => void;
  onUniqueViolation?: (constraint: string) => AppError | undefined;
}

/**
 * A correction of a saved registration step (docs/decisions/025): like a move, one transaction
 * with a guarded update — the row changes only while the application stands where the domain
 * allows this correction (AMENDMENTS) — the step's rows and the audit event. It never changes
 * `next_step` or `status`. Zero rows: the application moved on (another tab saved the business),
 * 409 with where it stands, and nothing is written.
 */
export async function amendApplication(deps: EngineDeps, options: AmendOptions): Promise<ApplicationRow> {
  const from = AMENDMENTS[options.amendment];
  const now = deps.clock();
  try {
    return await deps.db.transaction(async (tx) => {
      // The row locked first: corrections of one application happen one after the other.
      const [before] = await tx.select().from(users).where(eq(users.id, options.userId)).for('update');
      const [{ made }] = (await tx
        .select({ made: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.applicationId, options.userId), eq(auditEvents.type, 'step.amended')))) as [
        { made: number },
      ];
      if (made >= MAX_AMENDMENTS) throw TOO_MANY;
      const [row] = await tx
        .update(users)
        .set({ ...options.set, updatedAt: now })
        .where(
          and(
            eq(users.id, options.userId),
            notErased(users.phoneE164),
            or(...from.map((state) => and(eq(users.nextStep, state.step), eq(users.status, state.status)))),
          ),
        )
        .returning();
      if (!row) {
        const refusal = await conflict(tx, deps.country, options.userId);
        if (refusal instanceof ApplicationErasedError) throw refusal;
        const current = refusal.extra.current as StepAnswer | undefined;
        throw new StepConflict(current ?? null, 'STEP_NOT_EDITABLE', NOT_EDITABLE);
      }
      options.check?.(row);
      await options.write?.(tx);
      // A tax id given up is named (its lookup hash) so the chain shows it was held, then released.
      const released =
        before?.taxIdHash && before.taxIdHash !== row.taxIdHash ? { previous_tax_id_hash: before.taxIdHash } : {};
      await appendAuditEvent(tx, {
        applicationId: row.id,
        actor: options.actor,
        type: 'step.amended',
        payload: {
          amendment: options.amendment,
          step: row.nextStep,
          status: row.status,
          ...released,
          ...options.payload,
        },
        at: now,
      });
      return row;
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    const refusal = constraint === null ? undefined : options.onUniqueViolation?.(constraint);
    throw refusal ?? error;
  }
}
