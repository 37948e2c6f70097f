import { creditPolicySchema, type CountryCode } from '@provee/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.js';
import { appendAuditEvent } from '../audit/index.js';
import { insertFirstVersion, readLiveVersions } from './live.store.js';
import type { CreditPolicy } from './policy.js';

/** A version as decisions use it: its id, the label they record, its document. */
export interface PolicyVersion {
  id: string;
  label: string;
  policy: CreditPolicy;
}

/** The version that decides now, and the one that runs beside it in shadow (never acted on). */
export interface LivePolicy extends PolicyVersion {
  shadow: PolicyVersion | null;
}

/**
 * Where the credit policy is read (issue 33): the country's live version, from the database at each
 * use, so every process decides by the version an admin published a moment ago. A published document
 * never changes (a trigger refuses it), so each is parsed once per process.
 */
export interface PolicyBook {
  country: CountryCode;
  live(db?: Executor): Promise<LivePolicy>;
  /** A version's document, validated (a published one once, then kept: it never changes). */
  documentOf(row: { id: string; status: string; document: unknown }): CreditPolicy;
  /** The country's version 1 from the file (or the shipped default), unless it has versions already. */
  ensureFirstVersion(): Promise<void>;
}

/** Audit chain of a country's policy changes (publish, rollback, shadow). */
export const policyChain = (country: string) => `policy:${country}`;

export function createPolicyBook(options: {
  db: Db;
  country: CountryCode;
  /** The policy of CREDIT_POLICY_FILE or the shipped default: version 1 of a fresh database. */
  first: CreditPolicy;
  clock: () => Date;
  log: FastifyBaseLogger;
}): PolicyBook {
  const { db, country, first } = options;
  const published = new Map<string, CreditPolicy>();
  const document = (id: string, raw: unknown) => {
    let policy = published.get(id);
    if (!policy) {
      policy = creditPolicySchema.parse(raw);
      published.set(id, policy);
    }
    return policy;
  };
  /** The shadow's document, or none: a shadow that cannot be read never stops a real decision. */
  const shadowOf = (id: string | null, label: string | null, raw: unknown): PolicyVersion | null => {
    if (!id || !label) return null;
    try {
      return { id, label, policy: document(id, raw) };
    } catch (error) {
      options.log.error(
        { err: error, policy: id },
        'credit policy: the shadow version cannot be read; decisions go on without it',
      );
      return null;
    }
  };
  async function ensureFirstVersion() {
    const at = options.clock();
    const seeded = await db.transaction(async (tx) => {
      const row = await insertFirstVersion(tx, { country, label: first.version, document: first, at });
      if (row)
        await appendAuditEvent(tx, {
          applicationId: policyChain(country),
          actor: 'system',
          type: 'policy.published',
          payload: { policy_id: row.id, number: 1, label: row.label, mode: 'live', author: 'system' },
          at,
        });
      return row;
    });
    if (seeded) return;
    const live = await readLiveVersions(db, country);
    if (live && live.label !== first.version)
      options.log.info(
        { live: live.label, file: first.version },
        'credit policy: the database holds published versions; the live one decides (CREDIT_POLICY_FILE seeds version 1 only)',
      );
  }
  return {
    country,
    documentOf: (row) =>
      row.status === 'PUBLISHED' ? document(row.id, row.document) : creditPolicySchema.parse(row.document),
    async live(executor = db) {
      let row = await readLiveVersions(executor, country);
      // A start that found the database unavailable seeds version 1 at the first use instead.
      if (!row && executor === db) {
        await ensureFirstVersion();
        row = await readLiveVersions(executor, country);
      }
      if (!row) throw new Error(`no live credit policy for ${country}: the start seeds version 1`);
      return {
        id: row.id,
        label: row.label,
        policy: document(row.id, row.document),
        shadow: shadowOf(row.shadowId, row.shadowLabel, row.shadowDocument),
      };
    },
    ensureFirstVersion,
  };
}
