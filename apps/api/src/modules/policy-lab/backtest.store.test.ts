import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bureauConsents } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { useTestApp } from '../../test/test-app.js';
import { countDecisions, decisionsPage, type PageEnd } from './backtest.store.js';

/**
 * The backtest's keyset walk on each database: every decision of the range exactly once, across
 * pages, whatever their instants share (the same microsecond, microseconds a Date would drop).
 */
describe("the backtest's walk over stored decisions", () => {
  const t = useTestApp();

  it('reads each decision once, in order, across pages of any size', async () => {
    const user = await createApplication(t.app);
    // Instants a JavaScript Date cannot hold (microseconds), some shared by several decisions.
    const instants = [
      '2026-11-21 10:00:00.000001+00',
      '2026-11-21 10:00:00.000001+00',
      '2026-11-21 10:00:00.000001+00',
      '2026-11-21 10:00:00.000002+00',
      '2026-11-21 10:00:00.000999+00',
      '2026-11-21 10:00:00.001+00',
      '2026-11-21 10:00:00.001+00',
    ];
    for (const [index, at] of instants.entries()) {
      const [consent] = await t.app.db
        .insert(bureauConsents)
        .values({
          userId: user.id,
          personType: 'titular',
          consentText: 'x',
          consentTextSha256: 'y',
          consentVersion: 'v',
          createdAt: new Date('2026-11-21T10:00:00Z'),
          ip: '1',
          pinVerified: true,
          bureauFolio: `F-${index}`,
          authorizedUntil: new Date('2029-11-21T10:00:00Z'),
        })
        .returning();
      await t.app.db.execute(sql`
        INSERT INTO credit_decisions (user_id, consent_id, policy_version, inputs, rules, result, amount, currency, created_at)
        VALUES (${user.id}, ${consent!.id}, 'v', '{}', '[]', 'APPROVED', 1, 'DOP', ${at}::timestamptz)`);
    }
    const scope = {
      currency: 'DOP',
      start: new Date('2026-11-21T00:00:00Z'),
      end: new Date('2026-11-22T00:00:00Z'),
    };
    expect(await countDecisions(t.app.db, scope)).toBe(instants.length);
    for (const size of [1, 2, 3, 7, 100]) {
      const seen: string[] = [];
      let after: PageEnd | null = null;
      for (;;) {
        const page = await decisionsPage(t.app.db, scope, after, size);
        seen.push(...page.map((row) => row.id));
        if (page.length < size) break;
        after = { createdAt: page.at(-1)!.cursor, id: page.at(-1)!.id };
      }
      expect(seen, `pages of ${size}`).toHaveLength(instants.length);
      expect(new Set(seen).size).toBe(instants.length);
    }
  });
});
