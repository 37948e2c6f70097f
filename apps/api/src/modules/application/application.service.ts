import { randomUUID } from 'node:crypto';
import {
  INITIAL_STATE,
  TRANSITIONS,
  fromE164,
  isApplicationStatus,
  isNextStep,
  milestoneOf,
  routeAfterLookup,
  sameState,
  SIGNER_TRANSITIONS,
  type SignerState,
  type SignerTransitionName,
  type ApplicationState,
  type CountryCode,
  type StepAnswer,
  type TransitionName,
} from '@provee/domain';
import { and, asc, eq, inArray, isNull, lt, ne, or, type SQL } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.js';
import { avals, contractSigners, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { ApplicationErasedError, isErasedPhone, notErased } from './erased.js';
import { recordMilestone } from './milestones.js';

export type ApplicationRow = typeof users.$inferSelect;
type Columns = Omit<
  Partial<typeof users.$inferInsert>,
  'id' | 'nextStep' | 'status' | 'stepClaim' | 'stepClaimedUntil'
>;

/** What the step engine needs: the database and the app's clock (never the Fastify instance). */
export interface EngineDeps {
  db: Db;
  clock: () => Date;
  country: CountryCode;
}

/** The engine's dependencies out of the app (routes and services hold the app). */
export function engineOf(app: { db: Db; clock: () => Date; config: { COUNTRY: CountryCode } }): EngineDeps {
  return { db: app.db, clock: app.clock, country: app.config.COUNTRY };
}

/** What every saving call answers: the contract's step answer (where it stands, the screen that shows it). */
export type { StepAnswer };

export async function stepAnswer(
  deps: { db: Executor; country: CountryCode },
  row: ApplicationRow,
): Promise<StepAnswer> {
  // Only the guarantor steps route on the guarantors' phones.
  const needsAvals = row.nextStep === 'PARTNER_NIP' || row.nextStep === 'COLLATERAL_NIP';
  const named = needsAvals
    ? await deps.db
        .select()
        .from(avals)
        .where(and(eq(avals.userId, row.id), ne(avals.status, 'REPLACED')))
        .orderBy(asc(avals.createdAt))
    : [];
  const path = routeAfterLookup({
    kind: 'user',
    phone: fromE164(deps.country, row.phoneE164),
    user: {
      user_id: row.id,
      next_step: row.nextStep,
      status: row.status,
      avals: named.map((aval) => ({
        aval_type: aval.avalType as 'PARTNER' | 'COLLATERAL',
        phone: aval.phoneE164 ? fromE164(deps.country, aval.phoneE164) : null,
      })),
    },
  });
  return { user_id: row.id, next_step: row.nextStep, status: row.status, path };
}

/** 409 with where the application stands, so the screen can go there (SPEC §2.2). */
export class StepConflict extends AppError {
  constructor(
    answer: StepAnswer | null,
    code = 'STEP_NOT_CURRENT',
    readable = 'Este paso ya fue completado. Te llevamos a donde te quedaste.',
  ) {
    super(409, code, 'step is not the current one', readable, answer ? { current: answer } : {});
  }
}

/**
 * Why a guarded update changed nothing, read with `db` (inside a transaction: the transaction
 * itself): the application was erased (410), or it stands elsewhere (409 with where).
 */
export async function conflict(
  db: Executor,
  country: CountryCode,
  userId: string,
): Promise<StepConflict | ApplicationErasedError> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (row && isErasedPhone(row.phoneE164)) return new ApplicationErasedError(row.id);
  return new StepConflict(row ? await stepAnswer({ db, country }, row) : null);
}

/** The name of the unique constraint a database error violated, or null (PGlite and postgres.js alike). */
export function uniqueViolation(error: unknown): string | null {
  for (let cause: unknown = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const {
      code,
      constraint,
      constraint_name: constraintName,
    } = cause as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    if (code === '23505') return String(constraintName ?? constraint ?? '');
  }
  return null;
}

/** Refuses early (before any validation or slow work) when the row is not where `transition` starts. */
export async function assertAt(deps: EngineDeps, row: ApplicationRow, transition: TransitionName): Promise<void> {
  const { from } = TRANSITIONS[transition];
  if (isErasedPhone(row.phoneE164)) throw new ApplicationErasedError(row.id);
  if (row.nextStep !== from.step || row.status !== from.status) throw new StepConflict(await stepAnswer(deps, row));
}

export interface MoveOptions<T> {
  userId: string;
  transition: TransitionName;
  /** Where the move ends; the transition's first target when omitted. */
  to?: ApplicationState;
  /** Who moves it: 'user:<id>' or 'system'. */
  actor: string;
  /** Columns of the application row written with the move. */
  set?: Columns;
  /** The step's own rows, written in the same transaction. */
  write?: (tx: Tx) => Promise<T>;
  /** The audit event; 'step.saved' with the transition's name unless given (its payload may read what `write` wrote). */
  event?: { type?: string; payload?: Record<string, unknown> | ((written: T) => Record<string, unknown>) };
  /** The step's own refusal for a unique violation (e.g. a tax id another application has). */
  onUniqueViolation?: (constraint: string) => AppError | undefined;
  /** The claim this caller holds (claimStep): the move happens only while it is still this one's. */
  claim?: string;
}

/**
 * The one way the application moves. In ONE transaction: a guarded update (the row changes only
 * if it is still at the transition's starting state), the step's rows and the audit event. Zero
 * rows updated means someone else moved it first: 409 with where it stands.
 */
export async function moveApplication<T = undefined>(
  deps: EngineDeps,
  options: MoveOptions<T>,
): Promise<{ row: ApplicationRow; result: T }> {
  const transition = TRANSITIONS[options.transition];
  const to = options.to ?? transition.to[0];
  if (!transition.to.some((target: ApplicationState) => sameState(target, to))) {
    throw new Error(`transition ${options.transition} cannot end in ${to.step}/${to.status}`);
  }
  const now = deps.clock();
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({
          ...options.set,
          nextStep: to.step,
          status: to.status,
          stepClaim: null,
          stepClaimedUntil: null,
          updatedAt: now,
        })
        .where(
          and(
            eq(users.id, options.userId),
            eq(users.nextStep, transition.from.step),
            eq(users.status, transition.from.status),
            // An erasure that committed first (or that this update waited on) leaves nothing to move.
            notErased(users.phoneE164),
            options.claim ? eq(users.stepClaim, options.claim) : undefined,
          ),
        )
        .returning();
      if (!row) throw await conflict(tx, deps.country, options.userId);
      const result = (options.write ? await options.write(tx) : undefined) as T;
      await appendAuditEvent(tx, {
        applicationId: row.id,
        actor: options.actor,
        type: options.event?.type ?? 'step.saved',
        payload: {
          transition: options.transition,
          step: transition.from.step,
          to: { step: to.step, status: to.status },
          ...(typeof options.event?.payload === 'function' ? options.event.payload(result) : options.event?.payload),
        },
        at: now,
      });
      const milestone = milestoneOf(options.transition, to);
      if (milestone) await recordMilestone(tx, row.id, milestone, now);
      return { row, result };
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    const refusal = constraint === null ? undefined : options.onUniqueViolation?.(constraint);
    throw refusal ?? error;
  }
}

/**
 * Claims the step before slow work (hashing a password), so duplicates are refused at once and
 * without the work. The claim lapses after `seconds`, so a crash mid-work never blocks the user.
 */
export async function claimStep(
  deps: EngineDeps,
  userId: string,
  transition: TransitionName,
  seconds = 30,
): Promise<string> {
  const { from } = TRANSITIONS[transition];
  const now = deps.clock();
  const claim = randomUUID();
  const [row] = await deps.db
    .update(users)
    .set({ stepClaim: claim, stepClaimedUntil: new Date(now.getTime() + seconds * 1000) })
    .where(
      and(
        eq(users.id, userId),
        eq(users.nextStep, from.step),
        eq(users.status, from.status),
        notErased(users.phoneE164),
        or(isNull(users.stepClaim), lt(users.stepClaimedUntil, now)),
      ),
    )
    .returning({ id: users.id });
  if (row) return claim;
  const [current] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (current && isErasedPhone(current.phoneE164)) throw new ApplicationErasedError(current.id);
  const stillHere = current && current.nextStep === from.step && current.status === from.status;
  throw new StepConflict(
    current ? await stepAnswer(deps, current) : null,
    stillHere ? 'STEP_IN_PROGRESS' : 'STEP_NOT_CURRENT',
    stillHere ? 'Ya estamos guardando este paso. Espera un momento.' : undefined,
  );
}

/** Gives a claim back when the work failed (e.g. a refused password), so the user can try again. */
export async function releaseClaim(deps: EngineDeps, userId: string, claim: string): Promise<void> {
  await deps.db
    .update(users)
    .set({ stepClaim: null, stepClaimedUntil: null })
    .where(and(eq(users.id, userId), eq(users.stepClaim, claim)));
}

export interface CreateOptions {
  phoneE164: string;
  /** The application's id when the caller needs it before the row exists (its data key, decision 032). */
  id?: string;
  actor?: string;
  /** The columns, or a function of the transaction that makes them (a data key made in it rolls back with a refusal). */
  set: Columns | ((tx: Tx) => Promise<Columns>);
  /** The audit event of the creation ('user.registered'). */
  event: { type: string; payload: Record<string, unknown> };
  /** Tests only (the test factory): start at another state the domain knows. */
  at?: ApplicationState;
}

/** A new application with its first audit event, in one transaction; one application per phone. */
export async function createApplication(deps: EngineDeps, options: CreateOptions): Promise<ApplicationRow> {
  const state = options.at ?? INITIAL_STATE;
  if (!isNextStep(state.step) || !isApplicationStatus(state.status))
    throw new Error(`unknown state ${state.step}/${state.status}`);
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const set = typeof options.set === 'function' ? await options.set(tx) : options.set;
    const [row] = await tx
      .insert(users)
      .values({
        ...set,
        id: options.id,
        phoneE164: options.phoneE164,
        nextStep: state.step,
        status: state.status,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: users.phoneE164 })
      .returning();
    if (!row) {
      // One application per phone: the 409 says where the existing one stands, like any step's.
      const [existing] = await tx.select().from(users).where(eq(users.phoneE164, options.phoneE164)).limit(1);
      throw new StepConflict(
        existing ? await stepAnswer({ db: tx, country: deps.country }, existing) : null,
        'USER_EXISTS',
        'Este número ya tiene un registro. Te llevamos a donde te quedaste.',
      );
    }
    await appendAuditEvent(tx, {
      applicationId: row.id,
      actor: options.actor ?? `user:${row.id}`,
      type: options.event.type,
      payload: options.event.payload,
      at: now,
    });
    return row;
  });
}

export type SignerRow = typeof contractSigners.$inferSelect;
type SignerColumns = Omit<Partial<typeof contractSigners.$inferInsert>, 'id' | 'state' | 'contractId' | 'userId'>;

/** 409 with where the signer stands (the screens route on it). */
export class SignerConflict extends AppError {
  constructor(
    state: string | null,
    code = 'SIGNER_NOT_READY',
    readable = 'Este paso de la firma ya no está disponible.',
  ) {
    super(409, code, code === 'SIGNER_SIGNED' ? 'user not in progress' : 'signer is not at this step', readable, {
      signer_state: state,
    });
  }
}

export interface SignerMoveOptions<T> {
  signerId: string;
  transition: SignerTransitionName;
  to: SignerState;
  actor: string;
  set?: SignerColumns;
  /** A further guard: the move happens only while the signer's current check is this one. */
  currentVerificationId?: string;
  /** Any other condition of the guarded update (e.g. attempts left). */
  guard?: SQL;
  /** Columns computed inside the transaction, after the signer's row is locked (e.g. evidence). */
  prepare?: (tx: Tx, signer: SignerRow) => Promise<SignerColumns>;
  write?: (tx: Tx, signer: SignerRow) => Promise<T>;
  event?: { type?: string; payload?: Record<string, unknown> | ((result: T) => Record<string, unknown>) };
  /** What follows the move's own event in its transaction (the seal that the last signature brings). */
  afterEvent?: (tx: Tx, signer: SignerRow, result: T) => Promise<void>;
  /** The refusal when the signer is not where the transition starts (default: SignerConflict). */
  conflict?: (current: SignerRow | undefined) => AppError;
}

/**
 * The one way a signer moves (SPEC §4 verification and signing), like moveApplication: a guarded
 * update (only from the transition's starting states), the step's rows and the audit event of the
 * signer's application, in ONE transaction.
 */
export async function moveSigner<T = undefined>(
  deps: EngineDeps,
  options: SignerMoveOptions<T>,
): Promise<{ signer: SignerRow; result: T }> {
  const transition = SIGNER_TRANSITIONS[options.transition];
  if (!(transition.to as readonly SignerState[]).includes(options.to))
    throw new Error(`signer transition ${options.transition} cannot end in ${options.to}`);
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(contractSigners)
      .where(eq(contractSigners.id, options.signerId))
      .for('update');
    const ready = before && (transition.from as readonly SignerState[]).includes(before.state as SignerState);
    const prepared = ready && options.prepare ? await options.prepare(tx, before) : {};
    const [signer] = await tx
      .update(contractSigners)
      .set({ ...options.set, ...prepared, state: options.to, updatedAt: now })
      .where(
        and(
          eq(contractSigners.id, options.signerId),
          inArray(contractSigners.state, [...transition.from]),
          options.currentVerificationId
            ? eq(contractSigners.currentVerificationId, options.currentVerificationId)
            : undefined,
          options.guard,
          // The erasure tombstones the signers' phones with the application's, in its transaction.
          notErased(contractSigners.phoneE164),
        ),
      )
      .returning();
    if (!signer) {
      const [current] = await tx.select().from(contractSigners).where(eq(contractSigners.id, options.signerId));
      if (current && isErasedPhone(current.phoneE164)) throw new ApplicationErasedError(current.userId);
      throw (
        options.conflict?.(current) ??
        new SignerConflict(
          current?.state ?? null,
          current?.state === 'SIGNED' ? 'SIGNER_SIGNED' : undefined,
          current?.state === 'SIGNED' ? 'El contrato ya fue firmado.' : undefined,
        )
      );
    }
    const result = (options.write ? await options.write(tx, signer) : undefined) as T;
    await appendAuditEvent(tx, {
      applicationId: signer.userId,
      actor: options.actor,
      type: options.event?.type ?? 'signer.moved',
      payload: {
        transition: options.transition,
        signer_id: signer.id,
        person_type: signer.personType,
        aval_id: signer.avalId,
        from: before?.state ?? null,
        to: options.to,
        ...(typeof options.event?.payload === 'function' ? options.event.payload(result) : options.event?.payload),
      },
      at: now,
    });
    await options.afterEvent?.(tx, signer, result);
    if (options.to === 'SIGNED' && signer.personType === 'titular')
      await recordMilestone(tx, signer.userId, 'contract_signed', signer.signedAt ?? now);
    return { signer, result };
  });
}
