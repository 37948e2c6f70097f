import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.js';
import { createPolicyBook } from './policy-book.js';
import { loadPolicy } from './policy.js';

/**
 * Version 1 of a database no start could seed (the database was unavailable then): the first
 * decision's read seeds it, once, however many read at the same moment.
 */
describe('the policy book on a database not yet seeded', () => {
  let made: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    made = await createTestDatabase();
  });
  afterAll(() => made.drop());

  it('seeds version 1 at its first use', async () => {
    const book = createPolicyBook({
      db: made.database.db,
      country: 'do',
      first: loadPolicy(undefined, 'do'),
      clock: () => new Date('2026-11-21T15:00:00Z'),
      log: pino({ level: 'silent' }),
    });
    const reads = await Promise.all(Array.from({ length: 5 }, () => book.live()));
    expect(new Set(reads.map((live) => live.id)).size).toBe(1);
    expect(reads[0]).toMatchObject({ label: '2026-11-01', shadow: null });
  });
});
