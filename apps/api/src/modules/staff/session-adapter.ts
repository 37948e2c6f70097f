import { createHash } from 'node:crypto';
import { STAFF_SESSION_ABSOLUTE_HOURS, STAFF_SESSION_IDLE_MINUTES, type StaffLoginStage } from '@provee/domain';
import type { SessionStore } from '@fastify/session';
import type { Db } from '../../db/client.js';
import type { StaffRow } from './accounts.store.js';
import {
  deleteStaffSession,
  insertStaffSession,
  touchLiveStaffSession,
  updateStaffSession,
  type SessionLimits,
} from './sessions.store.js';

type Callback<T = void> = (error?: Error | null, value?: T) => void;
/** What a session keeps (as @fastify/session restores it): who, how far the login got, and when the last factor was given. */
export interface StoredSession {
  staffId?: string;
  stage?: StaffLoginStage;
  authMethod?: 'password' | 'sso';
  /** ISO time of the last second factor given in this session. */
  factorAt?: string | null;
  /** The WebAuthn challenge last handed out (single use). */
  challenge?: string | null;
  /** The account's session_epoch when the login began: a later value ends the session. */
  epoch?: number;
  ip?: string;
  userAgent?: string;
  /** Set by a login on its new session: only then may a row be created (a session ended meanwhile stays ended). */
  fresh?: boolean;
  /** The account, read with the session on each request and never stored (staff-auth.ts takes it). */
  member?: StaffRow;
}

export const hashSessionId = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

/** The idle (30 min) and absolute (12 h) limits of a session at `now`. */
export const sessionLimits = (now: Date): SessionLimits => ({
  idleSince: new Date(now.getTime() - STAFF_SESSION_IDLE_MINUTES * 60_000),
  bornAfter: new Date(now.getTime() - STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
});

/**
 * @fastify/session's store on the staff_sessions table (sessions.store.ts). The idle (30 min) and
 * absolute (12 h) limits are enforced here on every read, with the app's clock, and a read of a live
 * session moves its last activity when it is more than a minute old (sessions.store.ts). A session of a deactivated account, or one
 * begun before its account's session_epoch moved on (a role change, a factor reset, a new password),
 * reads as none.
 */
export function staffSessionStore(deps: { db: Db; clock: () => Date }): SessionStore {
  const promised =
    <T>(work: () => Promise<T>) =>
    (callback: Callback<T>) =>
      work().then(
        (value) => callback(null, value),
        (error: unknown) => callback(error as Error),
      );
  const store = {
    set(sessionId: string, session: StoredSession, callback: Callback) {
      promised(async () => {
        if (!session.staffId) return; // nothing to keep before a login
        const now = deps.clock();
        const state = {
          stage: session.stage ?? 'active',
          authMethod: session.authMethod ?? 'password',
          factorAt: session.factorAt ? new Date(session.factorAt) : null,
          challenge: session.challenge ?? null,
        };
        if (!session.fresh) {
          await updateStaffSession(deps.db, hashSessionId(sessionId), session.staffId, { ...state, lastSeenAt: now });
          return;
        }
        await insertStaffSession(deps.db, {
          idHash: hashSessionId(sessionId),
          staffId: session.staffId,
          ...state,
          epoch: session.epoch ?? 0,
          createdAt: now,
          lastSeenAt: now,
          ip: session.ip ?? null,
          userAgent: session.userAgent ?? null,
        });
      })(callback);
    },
    get(sessionId: string, callback: Callback<StoredSession | null>) {
      promised(async () => {
        const now = deps.clock();
        const live = await touchLiveStaffSession(deps.db, hashSessionId(sessionId), now, sessionLimits(now));
        if (!live) return null;
        const { session: row, member } = live;
        return {
          staffId: row.staffId,
          stage: row.stage as StaffLoginStage,
          authMethod: row.authMethod as 'password' | 'sso',
          factorAt: row.factorAt?.toISOString() ?? null,
          challenge: row.challenge,
          epoch: row.epoch,
          member,
        };
      })(callback);
    },
    destroy(sessionId: string, callback: Callback) {
      promised(async () => {
        await deleteStaffSession(deps.db, hashSessionId(sessionId));
      })(callback);
    },
  };
  // The plugin's Session type is the restored object; what is kept is the staff id and the login's state.
  return store as unknown as SessionStore;
}
