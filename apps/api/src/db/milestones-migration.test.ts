import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../paths.js';
import { migrationsUpTo } from '../test/migrations.js';

/**
 * Migration 0033 (issue 35): the funnel reads each application's milestones instead of its audit
 * trail. The applications made before it get theirs from their trails: the first time of each move,
 * the pre-approval only when the decision ended in the password step, the titular's signature.
 * Migration 0034 then copies each application's start and source beside them.
 */
describe('migration 0033: the milestones of earlier applications, from their audit trails', () => {
  const folder = mkdtempSync(join(tmpdir(), 'provee-migrations-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('fills each application’s first moves; an application without moves gets no row', async () => {
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzle(client);
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo(folder, '0032_messages_and_reminders') });
      const user = async (phone: string, utmSource: string | null = null) =>
        (
          await client.query<{ id: string }>(
            `insert into users (phone_e164, next_step, utm_source, created_at, updated_at)
             values ($1, 'PASSWORD', $2, '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z') returning id`,
            [phone, utmSource],
          )
        ).rows[0]!.id;
      const ana = await user('+18095550001', 'facebook');
      const beto = await user('+18095550002');
      await user('+18095550003');
      const move = (id: string, transition: string, at: string, to = { step: 'X', status: 'IN_PROGRESS' }) =>
        client.query(
          `insert into audit_events (application_id, actor, type, payload, created_at, prev_hash, hash)
           values ($1, 'system', 'step.saved', $2, $3, md5(random()::text), md5(random()::text))`,
          [id, JSON.stringify({ transition, to }), at],
        );
      await client.query(`insert into audit_events (application_id, actor, type, payload, created_at, hash)
        values ('${ana}', 'system', 'phone.proven', '{}', '2026-11-01T09:00:00Z', 'h')`);
      await move(ana, 'tax-id', '2026-11-01T10:01:00Z');
      await move(ana, 'address', '2026-11-01T10:02:00Z');
      await move(ana, 'decision', '2026-11-01T10:05:00Z', { step: 'PASSWORD', status: 'IN_PROGRESS' });
      // Beto was refused by the policy: no pre-approval.
      await move(beto, 'tax-id', '2026-11-02T10:01:00Z');
      await move(beto, 'decision', '2026-11-02T10:05:00Z', { step: 'PASSWORD', status: 'REJECTED' });

      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });

      const { rows } = await client.query<Record<string, unknown>>(
        `select application_id, started_at, utm_source, tax_id_at, business_address_at, business_at, pre_approved_at,
           contract_signed_at
         from application_milestones order by tax_id_at`,
      );
      // Migration 0034 copies each application's start and source beside its milestones.
      expect(rows).toEqual([
        {
          application_id: ana,
          started_at: new Date('2026-11-01T10:00:00Z'),
          utm_source: 'facebook',
          tax_id_at: new Date('2026-11-01T10:01:00Z'),
          business_address_at: new Date('2026-11-01T10:02:00Z'),
          business_at: null,
          pre_approved_at: new Date('2026-11-01T10:05:00Z'),
          contract_signed_at: null,
        },
        {
          application_id: beto,
          started_at: new Date('2026-11-01T10:00:00Z'),
          utm_source: null,
          tax_id_at: new Date('2026-11-02T10:01:00Z'),
          business_address_at: null,
          business_at: null,
          pre_approved_at: null,
          contract_signed_at: null,
        },
      ]);
    } finally {
      await client.close();
    }
  });
});
