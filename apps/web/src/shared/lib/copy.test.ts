import { afterEach, describe, expect, it } from 'vitest';
import { setCopyCountry, t } from './copy.js';

afterEach(() => setCopyCountry('do'));

describe('copy: the tax id with its article and gender per country', () => {
  it("do: 'la cédula', feminine", () => {
    setCopyCountry('do');
    expect(t('taxId.title', { label: 'Cédula / RNC' })).toBe('Confirma que tu cédula sea correcta');
    expect(t('taxId.subtitle')).toBe('La usamos para revisar tu historial de crédito. Revísala con calma.');
    expect(t('taxId.lookup', { label: 'Cédula / RNC' })).toBe('¿No conoces tu cédula? Consúltala aquí');
    expect(t('taxId.confirm', { label: 'Cédula / RNC' })).toBe('Mi cédula es correcta');
  });

  it("mx: 'el RFC', masculine", () => {
    setCopyCountry('mx');
    expect(t('taxId.title', { label: 'RFC' })).toBe('Confirma que tu RFC sea correcto');
    expect(t('taxId.subtitle')).toBe('Lo usamos para revisar tu historial de crédito. Revísalo con calma.');
    expect(t('taxId.lookup', { label: 'RFC' })).toBe('¿No conoces tu RFC? Consúltalo aquí');
    expect(t('taxId.confirm', { label: 'RFC' })).toBe('Mi RFC es correcto');
  });

  it('the address labels match the messages: Provincia (do), Estado (mx)', () => {
    expect(t('address.state')).toBe('Provincia');
    setCopyCountry('mx');
    expect(t('address.state')).toBe('Estado');
  });
});
