import { cedulaCheckDigit } from '@provee/domain';
import { asc, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, creditDecisions, users } from '../../db/schema.js';
import { createApplication, lastSmsPin, shopkeeperCall } from '../../test/factories.js';
import { lab } from '../../test/policy-lab.js';
import { staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { replay } from './replay.js';

/**
 * The policy lab (issue 33) on each database: versions, the replay's faithfulness, the backtest's
 * counts against the test's own, four eyes, concurrent publishes, shadow, rollback.
 */

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let serial = 0;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e8) * 10 + (serial++ % 10)).padStart(9, '0')}`;
/** The bureau simulator's test identities (providers/bureau/simulator.ts). */
const STRONG = '9990000001';
const DELINQUENT = '9990000002';
const THIN = '9990000003';

describe('policy lab', () => {
  const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, { clock });

  /** Every decision the tests make, and what the test knows of each: the business's age, the outcome it expects, its campaign. */
  const seeded: { userId: string; businessAge: number; approved: boolean; source: string | null }[] = [];

  /** An applicant through the consent PIN to the policy's decision. */
  async function decided(taxTen: string, businessAgeYears: number, options: { dob?: string; source?: string } = {}) {
    const user = await createApplication(t.app, {
      taxId: cedula(taxTen),
      businessAgeYears,
      salesRange: 3,
      ...(options.dob ? { dob: options.dob } : {}),
    });
    if (options.source) await t.app.db.update(users).set({ utmSource: options.source }).where(eq(users.id, user.id));
    expect((await shopkeeperCall(t.app, user, 'POST', '/nip')).statusCode).toBe(200);
    const res = await shopkeeperCall(t.app, user, 'PUT', '/nip', { nip: await lastSmsPin(t.app, user.phone) });
    // A refusal answers 422 with the kind words of the rejection screen.
    expect([200, 422], res.body).toContain(res.statusCode);
    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id));
    expect(decision).toBeDefined();
    return { user, decision: decision! };
  }
  async function seed(
    taxTen: string,
    businessAge: number,
    approved: boolean,
    options: { dob?: string; source?: string } = {},
  ) {
    const made = await decided(taxTen, businessAge, options);
    expect(made.decision.result).toBe(approved ? 'APPROVED' : 'REJECTED');
    seeded.push({ userId: made.user.id, businessAge, approved, source: options.source ?? null });
    return made;
  }

  it('a fresh start has version 1 live, from the shipped document, and every decision records it', async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const list = await lab(t).versions(analyst);
    expect(list).toMatchObject([{ number: 1, label: '2026-11-01', status: 'PUBLISHED', live: true, shadow: false }]);
    const { decision } = await seed(randomTen(), 3, true);
    expect(decision.policyVersion).toBe('2026-11-01');
    // The first version's publication is the first event of the country's policy chain.
    const [first] = await t.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, 'policy:do'))
      .orderBy(asc(auditEvents.id))
      .limit(1);
    expect(first).toMatchObject({ actor: 'system', type: 'policy.published' });
  });

  it('replaying every stored decision with the version that made it gives its stored outcome, rule by rule', async () => {
    const OLD = '1930-05-01'; // 96 on the test's day: over the policy's 80
    await seed(STRONG, 1, true, { source: 'radio' });
    await seed(randomTen(), 1, true);
    await seed(randomTen(), 2, true, { source: 'radio' });
    await seed(randomTen(), 4, true);
    await seed(THIN, 1, true, { source: 'radio' }); // the Dominican policy approves a thin file
    await seed(DELINQUENT, 1, false);
    await seed(randomTen(), 3, false, { dob: OLD, source: 'radio' });
    await seed(randomTen(), 1, false, { dob: OLD });
    const live = await t.app.policies.live();
    const stored = await t.app.db.select().from(creditDecisions).where(isNull(creditDecisions.avalId));
    expect(stored).toHaveLength(seeded.length);
    for (const decision of stored) {
      expect(decision.policyVersion).toBe(live.label);
      const again = replay(live, decision.inputs)!;
      expect({ result: again.result, amount: again.amount, rules: again.rules }).toEqual({
        result: decision.result,
        amount: decision.amount,
        rules: decision.rules,
      });
    }
  });

  it("a draft's backtest counts what the test counts from its own decisions", async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const draft = await lab(t).draft(analyst, { min_business_age_years: 2 });
    expect(draft.changes_from_live).toContainEqual({ what: 'Antigüedad del negocio ≥', before: '1', after: '2' });
    const expected = (items: typeof seeded) => ({
      as_decided: { decisions: items.length, approved: items.filter((item) => item.approved).length },
      live: { decisions: items.length, approved: items.filter((item) => item.approved).length },
      tested: {
        decisions: items.length,
        approved: items.filter((item) => item.approved && item.businessAge >= 2).length,
      },
      approved_to_rejected: items.filter((item) => item.approved && item.businessAge < 2).length,
      rejected_to_approved: 0,
    });
    const day = { from: '2026-11-21', to: '2026-11-21' };
    const backtest = await lab(t).call(analyst, 'POST', `/policies/${draft.id}/backtests`, day);
    expect(backtest.statusCode, backtest.body).toBe(200);
    const result = backtest.json().data.result;
    expect(result).toMatchObject(expected(seeded));
    expect(new Set(result.flips.map((flip: { application_id: string }) => flip.application_id))).toEqual(
      new Set(seeded.filter((item) => item.approved && item.businessAge < 2).map((item) => item.userId)),
    );
    const byRule = Object.fromEntries(result.reasons.map((reason: { rule: string }) => [reason.rule, reason]));
    expect(byRule.min_business_age_years).toEqual({
      rule: 'min_business_age_years',
      live: 0,
      tested: seeded.filter((item) => item.businessAge < 2).length,
    });

    // Only the applications of one campaign source.
    const radio = await lab(t).call(analyst, 'POST', `/policies/${draft.id}/backtests`, {
      ...day,
      utm_source: 'radio',
    });
    expect(radio.json().data.result).toMatchObject(expected(seeded.filter((item) => item.source === 'radio')));
    // The range is the country's days: the decisions (15:00 UTC, 11:00 in Santo Domingo) are not the 20th's.
    const before = await lab(t).call(analyst, 'POST', `/policies/${draft.id}/backtests`, {
      from: '2026-11-01',
      to: '2026-11-20',
    });
    expect(before.json().data.result.as_decided.decisions).toBe(0);
    const bad = await lab(t).call(analyst, 'POST', `/policies/${draft.id}/backtests`, {
      from: '2026-11-21',
      to: '2026-11-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('La fecha final es anterior a la inicial.');
  });
});
