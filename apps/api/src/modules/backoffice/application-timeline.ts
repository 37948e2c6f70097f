import { staffMay, type AuditChainView, type StaffRole, type TimelinePage } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { auditEventPage, phoneAuditId, verifyAuditChainSinceCheckpoint, type AuditEvent } from '../audit/index.js';
import type { StaffRow } from '../staff/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import { staffNames } from './applications.store.js';
import { NOT_FOUND } from './applications.service.js';

/** Events per page of the timeline: the detail's answer stays small at any chain length (issue 35). */
export const TIMELINE_PAGE_SIZE = 50;

type ChainName = AuditChainView['chain'];

/**
 * The application's two chains, from the application itself: its own, and its phone's (proofs
 * before registration, keyed by the phone's HMAC). A caller names one of the two, never a chain id.
 */
const chainIds = (app: FastifyInstance, user: UserRow): Record<ChainName, string> => ({
  phone: phoneAuditId(app, user.phoneE164),
  application: user.id,
});

/** Audit payload fields that hold where a person connected from: evidence for analysts only. */
const ADDRESS_FIELDS = new Set(['ip', 'ip_hash', 'peer_ip', 'forwarded_for', 'observed_ip', 'client_ip']);
const withoutAddresses = (payload: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(payload).filter(([key]) => !ADDRESS_FIELDS.has(key)));

const ROLE_NAMES: Record<string, string> = { advisor: 'asesor', analyst: 'analista', admin: 'administrador' };

/** Actors in words: a staff member by name and role (a compliance reader should not need ids). */
export async function actorNames(app: FastifyInstance, actors: string[]): Promise<(actor: string) => string> {
  const staffIds = [...new Set(actors.map((actor) => /^staff:([0-9a-f-]{36})$/.exec(actor)?.[1]).filter(Boolean))];
  const members = await staffNames(app.db, staffIds as string[]);
  const names = new Map(members.map((m) => [`staff:${m.id}`, `${m.name} (${ROLE_NAMES[m.role] ?? m.role})`]));
  return (actor) => {
    if (names.has(actor)) return names.get(actor)!;
    if (actor.startsWith('user:') || actor === 'user') return 'Solicitante';
    if (actor.startsWith('aval:') || actor.startsWith('signer:')) return 'Firmante o aval';
    if (actor.startsWith('provider:')) return `Proveedor (${actor.slice('provider:'.length)})`;
    if (actor === 'system') return 'Sistema';
    if (actor.startsWith('partner-key:'))
      return `Sistema del prestamista (llave ${actor.slice('partner-key:'.length, 'partner-key:'.length + 8)})`;
    if (actor === 'cli') return 'Consola (staff:create)';
    return actor;
  };
}

/** The events as staff read them: actors named; advisors see them without addresses. */
async function eventViews(app: FastifyInstance, pages: AuditEvent[][], sensitive: boolean) {
  const nameOf = await actorNames(
    app,
    pages.flatMap((events) => events.map((event) => event.actor)),
  );
  return pages.map((events) =>
    events.map((event) => ({
      id: event.id,
      type: event.type,
      actor: event.actor,
      actor_name: nameOf(event.actor),
      at: event.createdAt.toISOString(),
      // The chain is verified on the events as stored; the masking is of what is shown only.
      payload: sensitive ? event.payload : withoutAddresses(event.payload),
    })),
  );
}

/**
 * The detail's timeline: per chain, whether it verifies (from its checkpoint on, decision 040),
 * how many events it holds, and its newest page.
 */
export async function timeline(app: FastifyInstance, user: UserRow, sensitive: boolean): Promise<AuditChainView[]> {
  const ids = chainIds(app, user);
  const read = await Promise.all(
    (['phone', 'application'] as const).map(async (chain) => {
      const [verification, page] = await Promise.all([
        verifyAuditChainSinceCheckpoint(app.db, ids[chain], { log: app.log }),
        auditEventPage(app.db, ids[chain], { limit: TIMELINE_PAGE_SIZE }),
      ]);
      return { chain, verification, page };
    }),
  );
  const views = await eventViews(
    app,
    read.map(({ page }) => page.events),
    sensitive,
  );
  return read.map(({ chain, verification, page }, index) => ({
    chain,
    valid: verification.valid,
    broken_at: verification.valid ? null : verification.brokenAt,
    reason: verification.valid ? null : verification.reason,
    total: verification.events,
    events: views[index]!,
    older_cursor: page.olderCursor,
  }));
}

/** GET …/timeline: the events of one of the application's chains before a cursor, masked as in the detail. */
export async function timelinePage(
  app: FastifyInstance,
  member: StaffRow,
  applicationId: string,
  query: { chain: ChainName; before: number },
): Promise<TimelinePage> {
  const user = await findUserById(app.db, applicationId);
  if (!user) throw NOT_FOUND;
  const sensitive = staffMay(member.role as StaffRole, 'readSensitive');
  const page = await auditEventPage(app.db, chainIds(app, user)[query.chain], {
    before: query.before,
    limit: TIMELINE_PAGE_SIZE,
  });
  const [events] = await eventViews(app, [page.events], sensitive);
  return { chain: query.chain, events: events!, older_cursor: page.olderCursor };
}
