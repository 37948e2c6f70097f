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
 * Migration 0018 (issue 27): the advisor queue became one task per person (their first lead). A
 * database migrated up to 0017, with tasks on later leads, keeps each person handled after it.
 */
describe('migration 0018: advisor tasks move onto each person’s first lead', () => {
  const folder = mkdtempSync(join(tmpdir(), 'provee-migrations-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('a later lead’s finished or claimed task becomes the first lead’s; a first lead’s own task stays', async () => {
    // The later migrations need what the product's PGlite loads (0033: pg_trgm).
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzle(client);
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo(folder, '0017_identity_photo_uploads') });
      const lead = (id: string, phone: string, at: string) =>
        client.query(
          `insert into leads (lead_id, lead_type, shopkeeper_phone_e164, client_created_at, client_updated_at, received_at)
           values ($1, 'INTERNAL', $2, $3, $3, $3)`,
          [id, phone, at],
        );
      // Ana: three logins; her second was finished. Beto: two logins; his first claimed, his second finished.
      await lead('ana-1', '+18095550001', '2026-11-01T10:00:00Z');
      await lead('ana-2', '+18095550001', '2026-11-02T10:00:00Z');
      await lead('ana-3', '+18095550001', '2026-11-03T10:00:00Z');
      await lead('beto-1', '+18095550002', '2026-11-01T11:00:00Z');
      await lead('beto-2', '+18095550002', '2026-11-02T11:00:00Z');
      await client.query(
        `insert into advisor_tasks (source, source_id, done_at, claimed_at, note) values
           ('lead', 'ana-2', '2026-11-02T12:00:00Z', '2026-11-02T11:00:00Z', 'llamada hecha'),
           ('lead', 'beto-1', null, '2026-11-01T12:00:00Z', null),
           ('lead', 'beto-2', '2026-11-03T12:00:00Z', '2026-11-03T11:00:00Z', null)`,
      );

      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });

      const { rows } = await client.query<{
        source_id: string;
        done: boolean;
        claimed_at: Date | null;
        note: string | null;
      }>(
        `select source_id, done_at is not null as done, claimed_at, note from advisor_tasks
         where source_id in ('ana-1', 'beto-1') order by source_id`,
      );
      expect(rows).toEqual([
        { source_id: 'ana-1', done: true, claimed_at: new Date('2026-11-02T11:00:00Z'), note: 'llamada hecha' },
        // Beto's first task keeps its own claim and takes the later one's end.
        { source_id: 'beto-1', done: true, claimed_at: new Date('2026-11-01T12:00:00Z'), note: null },
      ]);
      // The index the queue reads one person's leads by.
      const { rows: plan } = await client.query<{ indexname: string }>(
        `select indexname from pg_indexes where tablename = 'leads' and indexname = 'leads_phone_idx'`,
      );
      expect(plan).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
