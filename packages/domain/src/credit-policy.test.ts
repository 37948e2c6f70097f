import { describe, expect, it } from 'vitest';
import { creditPolicySchema, describePolicyChanges, policyDraftSchema } from './credit-policy.js';
import { policyRuleLabel } from './policy-rules.js';

const base = creditPolicySchema.parse({
  version: '2026-11-01',
  eligibility: {
    min_age: 18,
    max_age: 80,
    allowed_cities_only: true,
    min_business_age_years: 1,
    min_sales_range: 1,
    min_score: 500,
    max_delinquencies: 0,
    thin_file: 'approve',
  },
  amount: { by_sales_range: [10000, 10000], score_bands: [{ min_score: 0, factor: 1 }], cap: 10000 },
});

describe('credit policy documents', () => {
  it('says what a version changes, rule by rule, in words', () => {
    const next = {
      ...base,
      eligibility: {
        ...base.eligibility,
        min_business_age_years: 2,
        allowed_cities_only: false,
        thin_file: 'reject' as const,
        max_delinquencies: undefined,
        max_recent_inquiries: 6,
      },
      reasons: { min_business_age_years: 'El negocio tiene menos de dos años.' },
      amount: {
        ...base.amount,
        score_bands: [
          { min_score: 0, factor: 1 },
          { min_score: 700, factor: 1.5 },
        ],
      },
    };
    expect(describePolicyChanges(base, next)).toEqual([
      { what: 'Ubicación del negocio', before: 'solo municipios atendidos', after: 'todos los municipios' },
      { what: 'Antigüedad del negocio ≥', before: '1', after: '2' },
      { what: 'Motivo: Antigüedad del negocio ≥', before: 'sin motivo', after: 'El negocio tiene menos de dos años.' },
      { what: 'Sin historial en el buró', before: 'aprobar', after: 'rechazar' },
      { what: 'Cuentas abiertas con saldo vencido ≤', before: '0', after: 'no se aplica' },
      { what: 'Consultas recientes al buró ≤', before: 'no se aplica', after: '6' },
      { what: 'Bandas de puntaje', before: 'desde 0: ×1', after: 'desde 0: ×1 · desde 700: ×1.5' },
    ]);
    expect(describePolicyChanges(base, base)).toEqual([]);
    expect(policyRuleLabel('thin_file')).toBe('Sin historial en el buró');
    expect(policyRuleLabel('min_score')).toBe('Puntaje de buró ≥');
  });

  it('refuses thresholds out of range and crossed ages in Spanish, naming the field', () => {
    const { version: _version, ...draft } = base;
    const result = policyDraftSchema.safeParse({
      ...draft,
      eligibility: { ...draft.eligibility, min_age: 90, max_age: 30, min_score: -1 },
      reasons: { no_such_rule: 'x' },
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual(
      expect.arrayContaining([
        ['eligibility.min_score', 'Puntaje mínimo: de 0 a 1000.'],
        ['eligibility.max_age', 'La edad máxima no puede ser menor que la mínima.'],
        ['reasons.no_such_rule', 'No hay una regla «no_such_rule».'],
      ]),
    );
  });
});
