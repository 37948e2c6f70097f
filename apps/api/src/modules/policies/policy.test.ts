import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, loadPolicy, type DecisionInputs } from './policy.js';

const policy = loadPolicy(undefined);
const clean: DecisionInputs = {
  age: 40,
  city: 'Santo Domingo de Guzmán',
  city_allowed: true,
  business_age_years: 3,
  sales_range: 3,
  score: 700,
  delinquencies: 0,
  worst_past_due_delay_days: 0,
  open_accounts: 2,
  recent_inquiries: 1,
  thin_file: false,
};

describe('default credit policy', () => {
  it('approves a clean report for 10,000', () => {
    const result = evaluate(policy, clean);
    expect(result.result).toBe('APPROVED');
    expect(result.amount).toBe(10_000);
    expect(result.rules.every((rule) => rule.passed)).toBe(true);
    expect(result.rules.map((rule) => rule.rule)).toEqual([
      'min_age',
      'max_age',
      'allowed_city',
      'min_business_age_years',
      'min_sales_range',
      'min_score',
      'max_delinquencies',
      'max_recent_inquiries',
    ]);
  });

  it.each<[string, Partial<DecisionInputs>]>([
    ['min_age', { age: 17 }],
    ['max_age', { age: 81 }],
    ['allowed_city', { city_allowed: false }],
    ['min_business_age_years', { business_age_years: 0 }],
    ['min_sales_range', { sales_range: 0 }],
    ['min_score', { score: 499 }],
    ['max_delinquencies', { delinquencies: 1 }],
    ['max_recent_inquiries', { recent_inquiries: 13 }],
  ])('rule %s alone rejects, and says so', (rule, change) => {
    const result = evaluate(policy, { ...clean, ...change });
    expect(result.result).toBe('REJECTED');
    expect(result.amount).toBe(0);
    expect(result.rules.filter((item) => !item.passed).map((item) => item.rule)).toEqual([rule]);
  });

  it('thin file: approved by default, rejected when the policy says so', () => {
    const thin = { ...clean, score: null, thin_file: true, open_accounts: 0 };
    expect(evaluate(policy, thin).result).toBe('APPROVED');
    const strict = { ...policy, eligibility: { ...policy.eligibility, thin_file: 'reject' as const } };
    const result = evaluate(strict, thin);
    expect(result.result).toBe('REJECTED');
    expect(result.rules.find((item) => item.rule === 'thin_file')).toMatchObject({ passed: false });
  });

  it('sizes the amount by sales range and score band, capped', () => {
    const tiered = {
      ...policy,
      amount: {
        by_sales_range: [4000, 8000, 12000],
        score_bands: [
          { min_score: 0, factor: 1 },
          { min_score: 750, factor: 1.5 },
        ],
        cap: 15000,
      },
    };
    expect(evaluate(tiered, { ...clean, sales_range: 1 }).amount).toBe(4000);
    expect(evaluate(tiered, { ...clean, sales_range: 2, score: 760 }).amount).toBe(12000);
    expect(evaluate(tiered, { ...clean, sales_range: 3, score: 760 }).amount).toBe(15000);
  });
});

describe('loading a policy', () => {
  it('reads the file of CREDIT_POLICY_FILE and refuses an invalid one, naming the variable', () => {
    const file = join(tmpdir(), `policy-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ version: 'x', eligibility: {}, amount: {} }));
    expect(() => loadPolicy(file)).toThrow(/^CREDIT_POLICY_FILE: la política no es válida/);
    expect(() => loadPolicy('/nonexistent.json')).toThrow(/^CREDIT_POLICY_FILE: no se pudo leer/);
    writeFileSync(file, JSON.stringify({ ...policy, version: '2027-01' }));
    expect(loadPolicy(file).version).toBe('2027-01');
  });
});

describe('Mexico’s default credit policy (Círculo de Crédito’s FICO Score)', () => {
  const mexican = loadPolicy(undefined, 'mx');
  const failed = (inputs: Partial<DecisionInputs>) =>
    evaluate(mexican, { ...clean, ...inputs })
      .rules.filter((rule) => !rule.passed)
      .map(({ rule, reason }) => ({ rule, reason }));

  it('approves a FICO Score of 600 with a past-due delay of 60 days at most', () => {
    expect(evaluate(mexican, { ...clean, score: 600, worst_past_due_delay_days: 60 }).result).toBe('APPROVED');
  });

  it('rejects a score under 600 and a delay over 60 days, each with its reason', () => {
    expect(failed({ score: 599 })).toEqual([{ rule: 'min_score', reason: 'El FICO Score es menor a 600.' }]);
    expect(failed({ worst_past_due_delay_days: 61 })).toEqual([
      {
        rule: 'max_past_due_delay_days',
        reason: 'Hay una cuenta abierta con saldo vencido y un atraso mayor a 60 días.',
      },
    ]);
  });

  it('a delay the report does not state fails the rule: never read as no delay', () => {
    expect(failed({ worst_past_due_delay_days: null }).map(({ rule }) => rule)).toEqual(['max_past_due_delay_days']);
  });

  it('a thin file is rejected with its own reason', () => {
    expect(failed({ score: null, thin_file: true, open_accounts: 0 })).toEqual([
      { rule: 'thin_file', reason: 'Sin historial en Círculo de Crédito para calificar.' },
    ]);
  });
});
